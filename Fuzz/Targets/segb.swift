// libFuzzer target: the Biome SEGB reader (SEGBFile) and the importer on top of it
// (BiomeImporter: protobuf payloads through SwiftProtobuf, archived interactions through
// PropertyListSerialization), for both streams.
// Any input must give records or an ArchiveError, never a trap, a hang or a leak; every
// record's payload lies inside the file; every record is accounted for once.
import SmartStackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSEGB(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if let file = try? SEGBFile(bytes: bytes) {
    for record in file.records where record.data.lowerBound < 0 || record.data.upperBound > size {
      fatalError("payload \(record.data) outside the file of \(size) bytes")
    }
  }
  for stream in BiomeStream.allCases {
    do {
      let c = try BiomeImporter(skipBadRows: true).read(bytes: bytes, file: "fuzz", stream: stream)
        .result.counts
      let dropped = c.dropped.reduce(0) { $0 + $1.count }
      if c.rows != c.donations + c.visits + c.counted + dropped {
        fatalError("\(c.rows) rows but \(c.donations + c.visits + c.counted + dropped) accounted for")
      }
    } catch is ArchiveError {
    } catch {
      fatalError("unexpected error type: \(error)")
    }
  }
  return 0
}
