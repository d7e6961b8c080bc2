// libFuzzer target: tar archives (TarArchive) and member choice (ImportSource.unpack, which
// also takes gzip-wrapped tars). Every entry must lie inside the input. The first byte
// (the zone byte of every target) is skipped.
import SmartStackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTar(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let (_, bytes) = fuzzInput(data, size)
  bytes.withUnsafeBufferPointer { buffer in
    guard let archive = try? TarArchive(buffer) else { return }
    for entry in archive.entries where entry.data.lowerBound < 0 || entry.data.upperBound > buffer.count {
      fatalError("entry \(entry.name) at \(entry.data) lies outside the \(buffer.count) input bytes")
    }
  }
  if let source = try? ImportSource.unpack(bytes, file: "fuzz.tar", extensions: [".tsv", ".csv"], limit: 16 << 20) {
    if source.range.upperBound > source.bytes.count { fatalError("member range past the data") }
  }
  return 0
}
