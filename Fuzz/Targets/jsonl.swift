// libFuzzer target: the donation log JSON Lines reader (DonationLog.read, format .jsonl).
// The first byte chooses the time zone (Fuzz/Support/FuzzInput.swift); any input must give a
// log or a DiagnosticList, never a trap, a hang or a leak.
import SmartStackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let (zone, bytes) = fuzzInput(data, size)
  expectReaderErrors {
    _ = try DonationLog.read(bytes: bytes, file: "fuzz.jsonl", format: .jsonl, timeZone: zone)
  }
  return 0
}
