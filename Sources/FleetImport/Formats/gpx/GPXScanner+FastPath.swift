import Foundation
import FleetCore

/// The fast path for ordinary points.
///
/// Why: a GPX file is millions of near-identical `<trkpt>` elements, and per tag the general
/// reading pays for an event, the tag stack, the tokenizer's open-element and namespace
/// bookkeeping and a copy of the text; that made the scanner thread the slower half of an
/// import. This reads one whole point straight from the window's bytes, applying the rules of
/// `start`, `end` and `store`, and commits only when the point is complete, well-formed and
/// clean. Anything else returns false having changed nothing but the blanks before the point,
/// and the general reading reads the point from the same `<`: a point that runs past the
/// window's end; a comment, CDATA, processing instruction or entity reference in it; an
/// attribute other than `lat`/`lon` (so a namespace declared on the point); a child with
/// attributes or blanks in a tag; an end tag that does not match; a speed or course in a
/// foreign namespace; and any value that would make the point a reject (bad number or time,
/// out of range, no time): rejects keep the general reading's messages.
extension GPXScanner {
    /// Skips the blanks at the scan position, then reads one point if it is plain; false when
    /// the next token is anything else or the point needs the general reading.
    func fastPoint(_ body: (GPXPoint) throws -> Void) throws -> Bool {
        let b = tokens.b, cls = tokens.classes
        let p = b.p, end = b.end
        var i = b.pos, lines = 0
        while i < end, cls[Int(p[i])] & XMLClass.blank != 0 { if p[i] == Byte.newline { lines += 1 }; i &+= 1 }
        // Blanks between elements: the general reading would skip them the same way.
        if i > b.pos { tokens.pass(to: i, lines: lines) }
        let start = i
        lines = 0
        let defaultNS = tokens.defaultNamespace
        guard start + 8 < end, p[start] == Byte.lt, defaultNS.isGPX else { return false }
        let kind: GPXPoint.Kind, nameLength: Int
        switch p[start + 1] {
        case UInt8(ascii: "t") where Self.equal(p + start + 1, "trkpt"): (kind, nameLength) = (.trackPoint, 5)
        case UInt8(ascii: "r") where Self.equal(p + start + 1, "rtept"): (kind, nameLength) = (.routePoint, 5)
        case UInt8(ascii: "w") where Self.equal(p + start + 1, "wpt"): (kind, nameLength) = (.waypoint, 3)
        default: return false
        }
        i = start + 1 + nameLength
        guard Byte.isSpace(p[i]) else { return false }

        // Attributes: exactly `lat` and `lon`, in either order, either quote.
        var latStart = -1, latEnd = 0, lonStart = -1, lonEnd = 0
        while true {
            while i < end, cls[Int(p[i])] & XMLClass.blank != 0 { if p[i] == Byte.newline { lines += 1 }; i &+= 1 }
            guard i + 4 < end else { return false }
            if p[i] == Byte.gt { i += 1; break }
            guard p[i] == UInt8(ascii: "l") else { return false }
            let isLat: Bool
            if p[i + 1] == UInt8(ascii: "a"), p[i + 2] == UInt8(ascii: "t") { isLat = true }
            else if p[i + 1] == UInt8(ascii: "o"), p[i + 2] == UInt8(ascii: "n") { isLat = false }
            else { return false }
            i += 3
            while i < end, Byte.isSpace(p[i]) { if p[i] == Byte.newline { lines += 1 }; i += 1 }
            guard i < end, p[i] == Byte.eq else { return false }
            i += 1
            while i < end, Byte.isSpace(p[i]) { if p[i] == Byte.newline { lines += 1 }; i += 1 }
            guard i < end, p[i] == Byte.quote || p[i] == Byte.apos else { return false }
            let quote = p[i]
            i += 1
            let valueStart = i
            while i < end {
                let c = p[i]
                if c == quote { break }
                if cls[Int(c)] & XMLClass.textStop != 0 {
                    guard c == Byte.newline else { return false }
                    lines += 1
                }
                i &+= 1
            }
            guard i + 1 < end else { return false }
            if isLat {
                guard latStart < 0 else { return false }
                (latStart, latEnd) = (valueStart, i)
            } else {
                guard lonStart < 0 else { return false }
                (lonStart, lonEnd) = (valueStart, i)
            }
            i += 1
            guard Byte.isSpace(p[i]) || p[i] == Byte.gt else { return false }
        }
        guard latStart >= 0, lonStart >= 0,
              let lat = GPXValues.decimal(p + latStart, latEnd - latStart), abs(lat) <= 90,
              let lon = GPXValues.decimal(p + lonStart, lonEnd - lonStart), abs(lon) <= 180 else { return false }

        // Content. `depth` counts open elements inside the point; `extensionsDepth` is the
        // depth of an open `<extensions>` child, 0 when none (as `start`/`end` keep them).
        fastNames.truncate(0)
        var depth = 0, extensionsDepth = 0
        var time: Int64?, ele: Double?, speed: Double?, course: Double?, extSpeed: Double?, extCourse: Double?
        var unknown = 0, zoneless = 0
        while true {
            // Text between tags is not read (the general reading skips it when not capturing).
            i = Self.text(p, i, end, cls, &lines)
            guard i >= 0, i + 1 < end else { return false }
            if p[i + 1] == Byte.slash {
                let open = depth == 0 ? start + 1 : fastNames[2 * depth - 2]
                let length = depth == 0 ? nameLength : fastNames[2 * depth - 1]
                guard i + 2 + length < end, p[i + 2 + length] == Byte.gt, Byte.equal(p + i + 2, p + open, length) else { return false }
                i += 3 + length
                if depth == 0 { break }
                if depth == extensionsDepth { extensionsDepth = 0 }
                fastNames.truncate(2 * depth - 2)
                depth -= 1
                continue
            }
            let nameStart = i + 1
            guard p[nameStart] != Byte.bang, p[nameStart] != Byte.question else { return false }
            var j = nameStart, colon = -1
            while j < end {
                let k = cls[Int(p[j])]
                if k != 0 {
                    if k & XMLClass.endsName != 0 { break }
                    if k & XMLClass.colon != 0, colon < 0 { colon = j }
                }
                j &+= 1
            }
            guard j < end, p[j] == Byte.gt, j > nameStart else { return false }
            let ns = colon < 0 ? defaultNS : tokens.namespace(prefix: p + nameStart, colon - nameStart)
            let local = colon < 0 ? nameStart : colon + 1
            let tag = GPXTag.of(ns, p + local, j - local)
            let childDepth = depth + 1
            i = j + 1
            var capture = GPXTag.other, inExtensions = false
            switch tag {
            case .time where childDepth == 1, .ele where childDepth == 1:
                capture = tag
            case .speed, .course:
                if childDepth == 1 { if ns.isGPX { capture = tag } } else if extensionsDepth > 0 { (capture, inExtensions) = (tag, true) }
            case .extensions where childDepth == 1:
                extensionsDepth = 1
            case .other where extensionsDepth > 0 && (ns == .other || ns == .unbound):
                // Counted as a foreign value by the general reading.
                if (j - local == 5 && Self.equal(p + local, "speed")) || (j - local == 6 && Self.equal(p + local, "course")) { return false }
            default: break
            }
            if capture == .other {
                fastNames.push(nameStart)
                fastNames.push(j - nameStart)
                depth = childDepth
                continue
            }
            // A value: text only, then its own end tag.
            let valueStart = i
            i = Self.text(p, i, end, cls, &lines)
            guard i >= 0 else { return false }
            let valueEnd = i, length = j - nameStart
            guard i + 2 + length < end, p[i + 1] == Byte.slash, p[i + 2 + length] == Byte.gt,
                  Byte.equal(p + i + 2, p + nameStart, length) else { return false }
            i += 3 + length
            let v = p + valueStart, n = valueEnd - valueStart
            if capture == .time {
                guard case .success(let ms) = GPXValues.time(v, n), Timestamp.plausible.contains(ms) else { return false }
                time = ms
                if Self.zoneless(v, n) { zoneless += 1 }
                continue
            }
            guard let value = GPXValues.decimal(v, n) else { return false }
            switch capture {
            case .ele: ele = value
            case .speed where value < 0, .course where value < 0: unknown += 1
            case .speed: if inExtensions { extSpeed = value } else { speed = value }
            case .course where value > 360: return false
            case .course: if inExtensions { extCourse = value } else { course = value }
            default: break
            }
        }
        guard let time else { return false }

        // The point is whole and clean: commit, as `beginPoint` and `end` would have.
        var point = GPXPoint(kind: kind)
        switch kind {
        case .trackPoint: index += 1; (point.track, point.segment, point.index) = (track, segment, index)
        case .routePoint: index += 1; (point.track, point.index) = (route, index)
        case .waypoint: waypoint += 1; point.index = waypoint
        }
        point.line = tokens.line
        point.lat = lat
        point.lon = lon
        point.time = time
        point.ele = ele
        point.speed = speed ?? extSpeed
        point.course = course ?? extCourse
        unknownValues += unknown
        zonelessTimes += zoneless
        fastPoints += 1
        tokens.pass(to: i, lines: lines)
        b.setPin(start)
        try body(point)
        b.pin = -1
        return true
    }

    @inline(__always) private static func equal(_ p: UnsafePointer<UInt8>, _ s: StaticString) -> Bool {
        Byte.equal(p, s.utf8Start, s.utf8CodeUnitCount)
    }

    /// Passes text up to the next `<` (or `end`), counting newlines; -1 at an entity reference.
    @inline(__always) private static func text(_ p: UnsafePointer<UInt8>, _ from: Int, _ end: Int, _ cls: UnsafePointer<UInt8>, _ lines: inout Int) -> Int {
        var i = from
        while i < end {
            let c = p[i]
            if cls[Int(c)] & XMLClass.textStop != 0 {
                if c == Byte.lt { break }
                if c == Byte.amp { return -1 }
                lines += 1
            }
            i &+= 1
        }
        return i
    }

    /// True when a readable time has no zone designator after its date (as `store` counts them).
    private static func zoneless(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        // The usual time ends in `Z`.
        if n > 10, p[n - 1] == UInt8(ascii: "Z"), !Byte.isSpace(p[0]) { return false }
        var s = 0
        while s < n, Byte.isSpace(p[s]) { s += 1 }
        if s == n { s = 0 }
        s += 10
        guard n > s else { return false }
        for k in s..<n where p[k] == UInt8(ascii: "Z") || p[k] == UInt8(ascii: "z") || p[k] == UInt8(ascii: "+") || p[k] == Byte.dash { return false }
        return true
    }
}
