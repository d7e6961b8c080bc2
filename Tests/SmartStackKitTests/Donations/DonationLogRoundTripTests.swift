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

/// Pieces names are built from: CSV and parameter-text specials, spaces, non-ASCII.
private let pieces = [
  "a", "B", "7", ",", "\"", ";", "=", "%", "%3B", " ", "é", "日本", "\n", "\r\n", "{", "\\", "\t",
]

private func name(_ random: inout SplitMix64, allowEmpty: Bool = false) -> String {
  let count = random.nextInt(below: 4) + (allowEmpty ? 0 : 1)
  return (0..<count).map { _ in pieces[random.nextInt(below: pieces.count)] }.joined()
}

private func randomLog(_ random: inout SplitMix64) -> [Donation] {
  let users = (0..<3).map { _ in name(&random) }
  let kinds = (0..<3).map { _ in name(&random) }
  let start: Int64 = 1_772_438_400_000
  return (0..<random.nextInt(below: 25)).map { _ in
    var parameters: [Parameter] = []
    var keys: [String] = []
    for _ in 0..<random.nextInt(below: 4) {
      let key = name(&random)
      if keys.contains(key) { continue }
      keys.append(key)
      parameters.append(Parameter(key, name(&random, allowEmpty: true)))
    }
    return Donation(
      timestamp: Instant(milliseconds: start + Int64(random.nextInt(below: 5)) * 999),
      user: users[random.nextInt(below: users.count)], kind: kinds[random.nextInt(below: kinds.count)],
      intent: random.nextInt(below: 3) == 0 ? nil : name(&random), parameters: parameters)
  }
}

@Suite("Donation log round trips")
struct DonationLogRoundTripTests {
  @Test func csvTextReadsBackAsAnEqualLogForManySeeds() throws {
    for seed in UInt64(0)..<300 {
      var random = SplitMix64(seed: seed)
      let log = DonationLog(randomLog(&random))
      let text = log.csvText()
      let back = try DonationLog.read(bytes: Array(text.utf8), file: "seed\(seed).csv")
      #expect(back == log, "seed \(seed):\n\(text)")
    }
  }

  @Test func jsonlTextReadsBackAsAnEqualLogForManySeeds() throws {
    for seed in UInt64(0)..<300 {
      var random = SplitMix64(seed: seed)
      let log = DonationLog(randomLog(&random))
      let text = log.jsonlText()
      let back = try DonationLog.read(bytes: Array(text.utf8), file: "seed\(seed).jsonl")
      #expect(back == log, "seed \(seed):\n\(text)")
    }
  }

  @Test func csvTextIsExactlyThePublicFormat() {
    let log = DonationLog([
      Donation(
        timestamp: Instant(milliseconds: 1_772_438_465_250), user: "alice", kind: "Shop, Inc",
        intent: "View", parameters: [Parameter("q", "a;b=c"), Parameter("card", "Acme")]),
      Donation(timestamp: Instant(seconds: 1_772_438_400), user: " bob", kind: "W"),
    ])
    #expect(
      log.csvText()
        == "timestamp,user,kind,intent,parameters\n"
        + "2026-03-02T08:00:00Z,\" bob\",W,,\n"
        + "2026-03-02T08:01:05.250Z,alice,\"Shop, Inc\",View,card=Acme;q=a%3Bb%3Dc\n")
    #expect(
      log.jsonlText()
        == #"{"timestamp":"2026-03-02T08:00:00Z","user":" bob","kind":"W","intent":null,"parameters":{}}"#
        + "\n"
        + #"{"timestamp":"2026-03-02T08:01:05.250Z","user":"alice","kind":"Shop, Inc","intent":"View","parameters":{"card":"Acme","q":"a;b=c"}}"#
        + "\n")
  }
}
