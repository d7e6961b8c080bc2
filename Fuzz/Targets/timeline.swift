// libFuzzer target: the relevance timeline reader (TimelineFile.read), in the zone the
// first byte chooses.
import SmartStackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTimeline(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let (zone, bytes) = fuzzInput(data, size)
  expectReaderErrors { _ = try TimelineFile.read(bytes: bytes, file: "fuzz.json", timeZone: zone) }
  return 0
}
