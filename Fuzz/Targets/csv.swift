// libFuzzer target: the donation log CSV reader (DonationLog.read, format .csv).
// Any input must give a log or a DiagnosticList, never a trap, a hang or a leak.
import SmartStackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  do {
    _ = try DonationLog.read(bytes: bytes, file: "fuzz.csv", format: .csv)
  } catch is DiagnosticList {
  } catch {
    fatalError("unexpected error type: \(error)")
  }
  return 0
}
