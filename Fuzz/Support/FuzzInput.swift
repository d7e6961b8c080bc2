// Shared by every fuzz target (Scripts/fuzz.sh compiles it with each one).
import SmartStackKit

/// The time zones an input may choose, so the readers' zone paths (naive local times
/// moved across 1970 or 2101, gaps, half- and quarter-hour offsets, +14:00) are reached.
let fuzzZoneNames = [
  "UTC", "Asia/Kolkata", "Pacific/Honolulu", "Pacific/Kiritimati", "America/New_York",
  "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kathmandu",
]

/// The zones of `fuzzZoneNames`, built once (building one costs a few hundred
/// Foundation calls, far more than reading a small input).
let fuzzZones: [ZoneRules] = fuzzZoneNames.map { ZoneRules(identifier: $0) ?? .utc }

/// An input split into its zone and its content: the first byte chooses
/// `fuzzZones[byte % count]`, the rest is the file. The empty input is an empty file in UTC.
func fuzzInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> (zone: ZoneRules, bytes: [UInt8]) {
  guard size > 0 else { return (.utc, []) }
  let zone = fuzzZones[Int(data[0]) % fuzzZones.count]
  return (zone, Array(UnsafeBufferPointer(start: data + 1, count: size - 1)))
}

/// Runs `body`, accepting only the errors a reader documents: `DiagnosticList` (located
/// problems) and those `allowed` names; anything else is a bug and stops the fuzzer.
func expectReaderErrors(allowed: (any Error) -> Bool = { _ in false }, _ body: () throws -> Void) {
  do {
    try body()
  } catch is DiagnosticList {
  } catch where allowed(error) {
  } catch {
    fatalError("unexpected error type: \(type(of: error)): \(error)")
  }
}

/// For the importers: calls `read` with the zone the first byte chooses, `skipBadRows`
/// from the second byte's low bit (so `--skip-bad-rows` is fuzzed too), and the text,
/// accepting only `DiagnosticList`.
func fuzzImport(
  _ data: UnsafePointer<UInt8>, _ size: Int,
  _ read: (ZoneRules, Bool, UnsafeBufferPointer<UInt8>) throws -> Void
) {
  let (zone, bytes) = fuzzInput(data, size)
  let skip = size > 1 && data[1] & 1 == 1
  expectReaderErrors { try bytes.withUnsafeBufferPointer { try read(zone, skip, $0) } }
}

/// For the donation log targets: reads `bytes` whole (`DonationLog.read`, then
/// `statistics(in:)`) and streaming (`DonationStatistics.read(bytes:…)`, what `validate`
/// runs), and stops the fuzzer unless both give the same statistics or the same problems.
/// Only `DiagnosticList` is an accepted error.
func fuzzDonationLog(_ bytes: [UInt8], file: String, format: DonationLogFormat, zone: ZoneRules) {
  func outcome(_ body: () throws -> DonationStatistics) -> String {
    do {
      return "statistics \(try body())"
    } catch let list as DiagnosticList {
      return "problems \(list.description)"
    } catch {
      fatalError("unexpected error type: \(type(of: error)): \(error)")
    }
  }
  let whole = outcome {
    try DonationLog.read(bytes: bytes, file: file, format: format, timeZone: zone).statistics(in: zone)
  }
  let streamed = outcome {
    try bytes.withUnsafeBufferPointer {
      try DonationStatistics.read(bytes: $0, file: file, format: format, timeZone: zone)
    }
  }
  if whole != streamed { fatalError("validate's streaming read differs:\n\(whole)\n\(streamed)") }
}
