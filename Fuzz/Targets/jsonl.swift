// libFuzzer target: the donation log JSON Lines reader (DonationLog.read, format .jsonl).
// The first byte chooses the time zone (Fuzz/Support/FuzzInput.swift); any input must give a
// log or a DiagnosticList, never a trap, a hang or a leak, and validate's streaming
// read (DonationStatistics.read) must give the same statistics or the same problems.
import SmartStackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let (zone, bytes) = fuzzInput(data, size)
  fuzzDonationLog(bytes, file: "fuzz.jsonl", format: .jsonl, zone: zone)
  return 0
}
