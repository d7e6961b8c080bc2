import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

@Suite("Donation log readers on damaged input")
struct DonationLogRobustnessTests {
  private static let csv = Array(
    """
    timestamp,user,kind,intent,parameters
    2026-03-02T08:01:05Z,alice,RecentPurchases,ViewRecentPurchases,card=Acme;category=Grocery
    "2026-03-02 09:00",bob,"Shop, Inc",,"q=say ""hi"";x=%3B"
    2026-03-02T10:00:00.5+01:00,,Weather,,city=S%C3%A3o Paulo

    """.utf8)
  private static let jsonl = Array(
    """
    {"timestamp":"2026-03-02T08:01:05Z","user":"alice","kind":"R","parameters":{"card":"Acme"}}
    {"timestamp":"2026-03-02 09:00","kind":"Shop, Inc","intent":null,"x":[1,{"y":2}]}

    """.utf8)

  /// Mutates, reads, and checks: only `DiagnosticList` may be thrown, and a log that reads
  /// writes back to text that reads as the same log.
  @Test(arguments: [DonationLogFormat.csv, .jsonl])
  func randomlyDamagedLogsNeverCrashAndValidOnesRoundTrip(_ format: DonationLogFormat) throws {
    let original = format == .csv ? Self.csv : Self.jsonl
    let specials = Array(",\"\n\r;=%{}[]:\\ 0Z-T".utf8) + [0xFF, 0xC3, 0xEF, 0xBB, 0xBF, 0x00]
    var state: UInt64 = 0x5EED
    func next(_ n: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33) % n
    }
    var valid = 0
    for seed in 0..<1500 {
      var bytes = original
      for _ in 0..<(1 + next(4)) {
        let at = next(bytes.count + 1)
        switch next(3) {
        case 0: bytes.insert(specials[next(specials.count)], at: at)
        case 1: if at < bytes.count { bytes.remove(at: at) }
        default: if at < bytes.count { bytes[at] = specials[next(specials.count)] }
        }
      }
      do {
        let log = try DonationLog.read(bytes: bytes, file: "f", format: format)
        valid += 1
        let text = format == .csv ? log.csvText() : log.jsonlText()
        let back = try DonationLog.read(bytes: Array(text.utf8), file: "g", format: format)
        #expect(back == log, "seed \(seed)")
      } catch let list as DiagnosticList {
        #expect(!list.diagnostics.isEmpty, "seed \(seed)")
        for d in list.diagnostics { #expect(d.line >= 1 && d.column >= 1, "seed \(seed): \(d)") }
      }
    }
    #expect(valid > 0)  // some mutations leave a valid log, so the round trip is exercised
  }
}
