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
