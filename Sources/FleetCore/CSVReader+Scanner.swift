import Foundation

// MARK: - Scanner

extension CSVReader {
    /// The scanner. A class so that it can own a manually managed buffer; the hot loop keeps
    /// its state in locals because class property accesses pay for exclusivity checks.
    final class Engine {
        enum State { case recordStart, fieldStart, unquoted, quoted, quotedAfterCR, quoteInQuoted }

        private var source: Source
        private var transcoder: Transcoder
        private let delimiter: UInt8
        private let maxRecordBytes: Int
        /// UTF-8 bytes; `[recordStart, end)` is the current record so far, `pos` the scan point.
        private var buf: UnsafeMutablePointer<UInt8>
        private var capacity: Int
        private var pos = 0, end = 0, recordStart = 0, contentEnd = 0
        private var state = State.recordStart
        /// The last line break was a CR, so an LF right after it belongs to the same break.
        private var pendingLF = false
        private var line = 1, recordLine = 1, number = 0
        /// Where each field of the current record ends, relative to `recordStart`; fields are
        /// separated by exactly one delimiter byte, so the ends are enough.
        private var ends: [Int] = []
        /// The beginning of an oversized record, kept for `raw` while the rest is dropped.
        private var oversizedPrefix: [UInt8]?
        private var finished = false

        init(source: Source, transcoder: Transcoder, delimiter: UInt8, maxRecordBytes: Int) {
            self.source = source
            self.transcoder = transcoder
            self.delimiter = delimiter
            self.maxRecordBytes = maxRecordBytes
            capacity = Transcoder.maxOutput(source.chunkSize) + 64
            buf = .allocate(capacity: capacity)
        }

        deinit {
            source.close()
            buf.deallocate()
        }

        func next() throws -> CSVRecord? {
            guard !finished else { return nil }
            do {
                while !scan() {
                    if try refill() { continue }
                    finished = true
                    source.close()
                    switch state {
                    case .recordStart:
                        return nil
                    case .quoted, .quotedAfterCR:
                        throw CSVError.unterminatedQuote(record: number + 1, line: recordLine)
                    case .fieldStart, .unquoted, .quoteInQuoted:
                        ends.append(end - recordStart)
                        return makeRecord(contentEnd: end)
                    }
                }
                return makeRecord(contentEnd: contentEnd)
            } catch {
                finished = true
                source.close()
                throw error
            }
        }

        /// Scans from `pos` to `end`. Returns true when a record ended at a line break
        /// (`contentEnd` is the break's index), false when the buffered bytes ran out.
        private func scan() -> Bool {
            let p = buf, e = end, delimiter = delimiter
            let (lf, cr, quote) = (Byte.lf, Byte.cr, Byte.quote)
            var i = pos, st = state, ln = line, rs = recordStart
            var fe = ends
            ends = []
            var found = false
            outer: while i < e {
                switch st {
                case .recordStart:
                    let b = p[i]
                    if b == lf || b == cr {  // a blank line: counted, not returned
                        if b == cr || !pendingLF { ln += 1 }
                        pendingLF = b == cr
                        i += 1
                        continue
                    }
                    pendingLF = false
                    rs = i
                    recordLine = ln
                    fe.removeAll(keepingCapacity: true)
                    st = .fieldStart
                case .fieldStart:
                    if p[i] == quote { st = .quoted; i += 1 } else { st = .unquoted }
                case .unquoted:
                    while i < e {
                        let b = p[i]
                        if b == delimiter {
                            fe.append(i - rs)
                            i += 1
                            // Stay in this loop for an unquoted next field: going back through
                            // the switch per field costs a mispredicted jump.
                            if i < e && p[i] != quote { continue }
                            st = .fieldStart
                            continue outer
                        }
                        if b == lf || b == cr { found = true; break outer }
                        i += 1
                    }
                case .quoted:
                    while i < e {
                        let b = p[i]
                        i += 1
                        if b == quote { st = .quoteInQuoted; continue outer }
                        if b == lf {
                            ln += 1
                        } else if b == cr {
                            ln += 1
                            if i == e { st = .quotedAfterCR; continue outer }
                            if p[i] == lf { i += 1 }
                        }
                    }
                case .quotedAfterCR:
                    if p[i] == lf { i += 1 }
                    st = .quoted
                case .quoteInQuoted:
                    let b = p[i]
                    if b == quote {
                        st = .quoted
                        i += 1
                    } else if b == delimiter {
                        fe.append(i - rs)
                        i += 1
                        st = .fieldStart
                    } else if b == lf || b == cr {
                        found = true
                        break outer
                    } else {
                        st = .unquoted  // lenient: text after the closing quote is kept
                    }
                }
            }
            if found {
                fe.append(i - rs)
                contentEnd = i
                pendingLF = p[i] == cr
                ln += 1
                i += 1
                st = .recordStart
            }
            pos = i
            state = st
            line = ln
            recordStart = rs
            ends = fe
            return found
        }

        /// Makes room and appends the next chunk; false at end of input. A record that has
        /// outgrown `maxRecordBytes` keeps only its beginning and is scanned on without being
        /// buffered, which is what bounds memory.
        private func refill() throws -> Bool {
            if state == .recordStart {
                recordStart = pos
            } else if oversizedPrefix != nil || end - recordStart > maxRecordBytes {
                keepOversizedPrefix(upTo: end)
                recordStart = pos
                ends.removeAll(keepingCapacity: true)
            }
            if recordStart > 0 {
                let keep = end - recordStart
                UnsafeMutableRawPointer(buf).copyMemory(from: buf + recordStart, byteCount: keep)
                pos -= recordStart
                end = keep
                recordStart = 0
            }
            while let chunk = try source.next() {
                reserve(Transcoder.maxOutput(chunk.count))
                let n = chunk.withUnsafeBytes { transcoder.transcode($0, into: buf + end) }
                end += n
                if n > 0 { return true }
            }
            reserve(8)
            let (n, oddTail) = transcoder.finish(into: buf + end)
            if oddTail {
                throw CSVError.unsupportedEncoding("UTF-16 with an odd number of bytes; the file is probably truncated")
            }
            end += n
            return n > 0
        }

        private func reserve(_ extra: Int) {
            guard end + extra > capacity else { return }
            let newCapacity = max(capacity * 2, end + extra)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            grown.update(from: buf, count: end)
            buf.deallocate()
            buf = grown
            capacity = newCapacity
        }

        /// Adds the buffered bytes `[recordStart, stop)` of an oversized record to the kept
        /// beginning, up to 4 bytes more than `decodeRaw` decodes so it can end on a character.
        private func keepOversizedPrefix(upTo stop: Int) {
            var prefix = oversizedPrefix ?? []
            let count = min(stop - recordStart, 4 * CSVReader.rawCap + 4 - prefix.count)
            if count > 0 { prefix.append(contentsOf: UnsafeBufferPointer(start: buf + recordStart, count: count)) }
            oversizedPrefix = prefix
        }

        private func makeRecord(contentEnd: Int) -> CSVRecord {
            number += 1
            let span = UnsafeBufferPointer(start: buf + recordStart, count: contentEnd - recordStart)
            if oversizedPrefix != nil || span.count > maxRecordBytes {
                keepOversizedPrefix(upTo: contentEnd)
                defer { oversizedPrefix = nil }
                let (raw, valid) = oversizedPrefix!.withUnsafeBufferPointer { CSVReader.decodeRaw($0, whole: false) }
                return CSVRecord(number: number, line: recordLine, fields: [], raw: raw,
                                 oversized: true, hadInvalidUTF8: !valid)
            }
            let (raw, valid) = CSVReader.decodeRaw(span, whole: true)
            var fields: [String] = []
            fields.reserveCapacity(ends.count)
            var start = 0
            for fieldEnd in ends {
                fields.append(CSVReader.decodeField(span, start, fieldEnd))
                start = fieldEnd + 1
            }
            return CSVRecord(number: number, line: recordLine, fields: fields, raw: raw,
                             oversized: false, hadInvalidUTF8: !valid)
        }
    }
}

