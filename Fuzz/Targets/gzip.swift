// libFuzzer target: gzip members through the system zlib (Gzip.decompress), with an
// expansion limit of 16 MiB so a bomb is refused quickly. The first byte (the zone byte of
// every target) is skipped.
import SmartStackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGzip(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let (_, bytes) = fuzzInput(data, size)
  do {
    let out = try Gzip.decompress(bytes, limit: 16 << 20)
    if out.count > 16 << 20 { fatalError("expanded past the limit: \(out.count) bytes") }
  } catch {
    // ArchiveError is the only error it throws (typed throws).
  }
  return 0
}
