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

/// The WWDC20 example: three RecentPurchases widgets and one donation.
private let widgets = [
  WidgetInstance(
    id: "acme-grocery", kind: "RecentPurchases",
    configuration: [Parameter("card", "Acme"), Parameter("category", "Grocery")]),
  WidgetInstance(
    id: "acme-travel", kind: "RecentPurchases",
    configuration: [Parameter("card", "Acme"), Parameter("category", "Travel")]),
  WidgetInstance(
    id: "bolt-grocery", kind: "RecentPurchases",
    configuration: [Parameter("card", "Bolt"), Parameter("category", "Grocery")]),
]
private let donated = [Parameter("card", "Acme"), Parameter("category", "Grocery")]

private func matched(
  _ catalog: IntentCatalog, kind: String = "RecentPurchases",
  intent: String? = "ViewRecentPurchases", parameters: [Parameter] = donated
) -> [String] {
  widgets.filter {
    catalog.matches(kind: kind, intent: intent, parameters: parameters, instance: $0)
  }.map(\.id)
}

@Suite("Donation matching")
struct DonationMatchingTests {
  @Test func combinationOfCardMatchesBothAcmeWidgets() {
    let catalog = IntentCatalog(["ViewRecentPurchases": [["card"]]])
    #expect(matched(catalog) == ["acme-grocery", "acme-travel"])
  }

  @Test func combinationOfCardAndCategoryMatchesOnlyAcmeGrocery() {
    let catalog = IntentCatalog(["ViewRecentPurchases": [["card", "category"]]])
    #expect(matched(catalog) == ["acme-grocery"])
  }

  @Test func eitherOfTwoCombinationsIsEnough() {
    let catalog = IntentCatalog(["ViewRecentPurchases": [["card", "category"], ["card"]]])
    #expect(matched(catalog) == ["acme-grocery", "acme-travel"])
  }

  @Test func noDeclaredCombinationsMatchesOnKindAlone() {
    #expect(matched(IntentCatalog()) == ["acme-grocery", "acme-travel", "bolt-grocery"])
    #expect(
      matched(IntentCatalog(["ViewRecentPurchases": []])) == [
        "acme-grocery", "acme-travel", "bolt-grocery",
      ])
  }

  @Test func donationWithoutIntentMatchesOnKindAlone() {
    let catalog = IntentCatalog(["ViewRecentPurchases": [["card", "category"]]])
    #expect(
      matched(catalog, intent: nil, parameters: []) == [
        "acme-grocery", "acme-travel", "bolt-grocery",
      ])
  }

  @Test func otherKindNeverMatches() {
    #expect(matched(IntentCatalog(), kind: "Weather") == [])
  }

  @Test func parameterMissingOnEitherSideFailsTheCombination() {
    let catalog = IntentCatalog(["ViewRecentPurchases": [["card", "store"]]])
    #expect(matched(catalog, parameters: donated + [Parameter("store", "X")]) == [])
    #expect(
      matched(
        IntentCatalog(["ViewRecentPurchases": [["category"]]]),
        parameters: [Parameter("card", "Acme")]) == [])
  }

  @Test func donatedParametersOutsideTheCombinationAreIgnored() {
    let catalog = IntentCatalog(["ViewRecentPurchases": [["card"]]])
    let extra = [
      Parameter("card", "Bolt"), Parameter("category", "Travel"), Parameter("amount", "12"),
    ]
    #expect(matched(catalog, parameters: extra) == ["bolt-grocery"])
  }

  @Test func combinationsAreNormalisedSortedAndUnique() {
    var catalog = IntentCatalog()
    catalog.declare("I", combinations: [["b", "a", "b"], ["a", "b"], ["c"]])
    #expect(catalog.combinations(of: "I") == [["a", "b"], ["c"]])
    #expect(catalog.combinations(of: "J") == [])
    #expect(catalog.intents == ["I"])
  }
}

@Suite("Donation matcher")
struct DonationMatcherTests {
  private let t0 = Instant(seconds: 1_772_438_400)  // 2026-03-02T08:00:00Z

  @Test func matchesTheWWDC20ExamplePerRow() {
    let log = DonationLog([
      Donation(
        timestamp: t0, kind: "RecentPurchases", intent: "ViewRecentPurchases", parameters: donated),
      Donation(
        timestamp: t0 + 1_000, kind: "RecentPurchases", intent: "ViewRecentPurchases",
        parameters: [Parameter("card", "Bolt")]),
      Donation(timestamp: t0 + 2_000, kind: "RecentPurchases"),
      Donation(timestamp: t0 + 3_000, kind: "Weather"),
      Donation(
        timestamp: t0 + 4_000, kind: "RecentPurchases", intent: "ViewRecentPurchases",
        parameters: donated),
    ])
    let matcher = DonationMatcher(
      log: log, instances: widgets, catalog: IntentCatalog(["ViewRecentPurchases": [["card"]]]))
    #expect(Array(matcher.instances(matching: 0)) == [0, 1])
    #expect(Array(matcher.instances(matching: 1)) == [2])
    #expect(Array(matcher.instances(matching: 2)) == [0, 1, 2])
    #expect(Array(matcher.instances(matching: 3)) == [])
    #expect(Array(matcher.instances(matching: 4)) == [0, 1])
    #expect(matcher.signatures == [0, 1, 2, 3, 0])
    #expect(matcher.signatureCount == 4)
    #expect(matcher.matches(donation: 1, instance: 2))
    #expect(!matcher.matches(donation: 1, instance: 0))
  }

  @Test func agreesWithTheTextFormOnRandomLogs() {
    let cards = ["Acme", "Bolt", "Cobalt"]
    let categories = ["Grocery", "Travel"]
    let instances =
      cards.flatMap { card in
        categories.map {
          WidgetInstance(
            id: "\(card)-\($0)", kind: "RecentPurchases",
            configuration: [Parameter("card", card), Parameter("category", $0)])
        }
      } + [WidgetInstance(id: "weather", kind: "Weather")]
    let catalogs = [
      IntentCatalog(), IntentCatalog(["View": [["card"]]]),
      IntentCatalog(["View": [["card", "category"], ["category"]]]),
    ]
    for seed in UInt64(0)..<60 {
      var state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1
      func next(_ n: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(state >> 33) % n
      }
      var donations: [Donation] = []
      for i in 0..<30 {
        var parameters: [Parameter] = []
        if next(3) > 0 { parameters.append(Parameter("card", cards[next(3)])) }
        if next(3) > 0 { parameters.append(Parameter("category", categories[next(2)])) }
        if next(4) == 0 { parameters.append(Parameter("amount", "\(next(5))")) }
        donations.append(
          Donation(
            timestamp: t0 + Int64(next(10) * 1_000 + i),
            kind: next(5) == 0 ? "Weather" : "RecentPurchases",
            intent: next(4) == 0 ? nil : "View", parameters: parameters))
      }
      let log = DonationLog(donations)
      let catalog = catalogs[Int(seed) % catalogs.count]
      let matcher = DonationMatcher(log: log, instances: instances, catalog: catalog)
      for row in 0..<log.count {
        let d = log[row]
        let expected = instances.indices.filter {
          catalog.matches(
            kind: d.kind, intent: d.intent, parameters: d.parameters, instance: instances[$0])
        }.map { Int32($0) }
        #expect(Array(matcher.instances(matching: row)) == expected, "seed \(seed) row \(row)")
      }
    }
  }
}
