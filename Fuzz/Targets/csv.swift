// libFuzzer target: the donation log CSV reader (DonationLog.read, format .csv).
// The first byte chooses the time zone (Fuzz/Support/FuzzInput.swift); any input must give a
// log or a DiagnosticList, never a trap, a hang or a leak, and validate's streaming
// read (DonationStatistics.read) must give the same statistics or the same problems.
import SmartStackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let (zone, bytes) = fuzzInput(data, size)
  fuzzDonationLog(bytes, file: "fuzz.csv", format: .csv, zone: zone)
  return 0
}
