// libFuzzer harness: the CSV reader must never crash, hang or loop on any bytes, and every
// record it returns must be self-consistent. Built by `make fuzz` together with FleetCore's
// sources into one module (swiftc -sanitize=fuzzer,address).
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    for delimiter in [nil, UInt8(ascii: ";")] as [UInt8?] {
        guard var reader = try? CSVReader(data: bytes, delimiter: delimiter, maxRecordBytes: 4096) else { continue }
        var last = 0
        while let record = try? reader.next() {
            precondition(record.number > last, "record numbers must increase")
            precondition(record.line >= 1)
            precondition(record.oversized ? record.fields.isEmpty : true)
            last = record.number
        }
    }
    _ = CSVReader.firstRecord(bytes)
    _ = CSVReader.sniffDelimiter(bytes)
    return 0
}
