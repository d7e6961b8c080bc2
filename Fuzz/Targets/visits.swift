// libFuzzer target: the visit log reader (VisitLog.read), in the zone the first byte chooses.
import SmartStackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVisits(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let (zone, bytes) = fuzzInput(data, size)
  expectReaderErrors { _ = try VisitLog.read(bytes: bytes, file: "fuzz.csv", zone: zone) }
  return 0
}
