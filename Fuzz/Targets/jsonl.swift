// libFuzzer target: the donation log JSON Lines reader (DonationLog.read, format .jsonl).
// Any input must give a log or a DiagnosticList, never a trap, a hang or a leak.
import SmartStackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  do {
    _ = try DonationLog.read(bytes: bytes, file: "fuzz.jsonl", format: .jsonl)
  } catch is DiagnosticList {
  } catch {
    fatalError("unexpected error type: \(error)")
  }
  return 0
}
