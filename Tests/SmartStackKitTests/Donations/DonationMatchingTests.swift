import Testing
@testable import SmartStackKit

/// The WWDC20 example: three RecentPurchases widgets and one donation.
private let widgets = [
  WidgetInstance(id: "acme-grocery", kind: "RecentPurchases", configuration: [Parameter("card", "Acme"), Parameter("category", "Grocery")]),
  WidgetInstance(id: "acme-travel", kind: "RecentPurchases", configuration: [Parameter("card", "Acme"), Parameter("category", "Travel")]),
  WidgetInstance(id: "bolt-grocery", kind: "RecentPurchases", configuration: [Parameter("card", "Bolt"), Parameter("category", "Grocery")]),
]
private let donated = [Parameter("card", "Acme"), Parameter("category", "Grocery")]

private func matched(_ catalog: IntentCatalog, kind: String = "RecentPurchases", intent: String? = "ViewRecentPurchases", parameters: [Parameter] = donated) -> [String] {
  widgets.filter { catalog.matches(kind: kind, intent: intent, parameters: parameters, instance: $0) }.map(\.id)
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
    #expect(matched(IntentCatalog(["ViewRecentPurchases": []])) == ["acme-grocery", "acme-travel", "bolt-grocery"])
  }

  @Test func donationWithoutIntentMatchesOnKindAlone() {
    let catalog = IntentCatalog(["ViewRecentPurchases": [["card", "category"]]])
    #expect(matched(catalog, intent: nil, parameters: []) == ["acme-grocery", "acme-travel", "bolt-grocery"])
  }

  @Test func otherKindNeverMatches() {
    #expect(matched(IntentCatalog(), kind: "Weather") == [])
  }

  @Test func parameterMissingOnEitherSideFailsTheCombination() {
    let catalog = IntentCatalog(["ViewRecentPurchases": [["card", "store"]]])
    #expect(matched(catalog, parameters: donated + [Parameter("store", "X")]) == [])
    #expect(matched(IntentCatalog(["ViewRecentPurchases": [["category"]]]), parameters: [Parameter("card", "Acme")]) == [])
  }

  @Test func donatedParametersOutsideTheCombinationAreIgnored() {
    let catalog = IntentCatalog(["ViewRecentPurchases": [["card"]]])
    let extra = [Parameter("card", "Bolt"), Parameter("category", "Travel"), Parameter("amount", "12")]
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
