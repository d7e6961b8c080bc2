import Foundation
import Testing

@testable import SmartStackBase
@testable import SmartStackEngine
@testable import SmartStackExperiments

/// A metric declared here only, from existing counts: visits per active person-day.
private let visitsPerDay = MetricDeclaration.rate(
  "visits_per_day", { c in c.activeDays == 0 ? .nan : Double(c.visits) / Double(c.activeDays) },
  definition: "visits / active person-days", unit: "visits per day", statisticsRank: 100, daily: true)

/// A group present only when some run has more rotations than visits / 2 (a stand-in for
/// a multi-card group that appears only for runs that show more than one card).
private let restless = MetricGroup("restless") { $0.rotations * 2 > $0.visits }
private let rotationShare = MetricDeclaration.rate(
  "rotation_share", { c in c.visits == 0 ? .nan : Double(c.rotations) / Double(c.visits) },
  definition: "rotations / visits", unit: "share of visits", group: restless, statisticsRank: 101)

/// One source, two strategies (a is the baseline), one replicate, two people.
private func experiment(rotations: Int, people: Bool = true) -> (ExperimentOutline, [CellResult]) {
  let outline = ExperimentOutline(
    name: "t", seed: 1, replicates: 1,
    sources: [
      .init(
        name: "s", kind: "log", unitsArePeoplePerReplicate: false,
        statistics: SourceStatistics(people: 2, events: 0, contentHash: "0"))
    ],
    strategies: [
      .init(descriptor: "a", name: "a", parameters: ""), .init(descriptor: "b", name: "b", parameters: ""),
    ],
    baseline: 0, trace: false, config: people ? ["people": .bool(true)] : .object([]))
  func person(_ hits: Int, visits: Int, days: Int) -> MetricCounts {
    var c = MetricCounts()
    c.visits = visits
    c.targetVisits = visits
    c.hits = hits
    c.activeDays = days
    c.rotations = rotations
    return c
  }
  let a = [person(1, visits: 4, days: 2), person(2, visits: 3, days: 1)]
  let b = [person(3, visits: 4, days: 2), person(0, visits: 3, days: 1)]
  let results = [a, b].enumerated().map { i, people in
    var day = MetricCounts()
    for p in people { day += p }
    return CellResult(
      cell: outline.cell(i),
      metrics: RunMetrics(
        perPerson: people, perPersonGini: [0.25, .nan], timesToSurface: [],
        daily: [(day: 20_000, counts: day, offsets: DayOffsets(start: 0, end: 0))]))
  }
  return (outline, results)
}

private func text(_ bytes: [UInt8]) -> [String] {
  String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
}

@Suite("Metric declarations")
struct MetricDeclarationTests {
  @Test func everyStoredCountIsAFieldAndIsAdded() {
    // `fields` names every stored property of MetricCounts, in declaration order.
    let stored = Mirror(reflecting: MetricCounts()).children.compactMap(\.label)
    let camel = MetricCounts.fields.map { field in
      let parts = field.name.split(separator: "_")
      return parts.first.map(String.init)! + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
    #expect(camel == stored)
    // `+=` adds every field: distinct values, added to themselves, double.
    var c = MetricCounts()
    for (i, field) in MetricCounts.fields.enumerated() { #expect(field.set(&c, Double(i + 1))) }
    var sum = c
    sum += c
    for (i, field) in MetricCounts.fields.enumerated() {
      #expect(field.double(sum) == Double(2 * (i + 1)), "\(field.name) is not added by +=")
    }
  }

  @Test func theStandardCatalogKeepsTheReportColumns() {
    let phone = MetricCatalog(MetricCatalog.standard.declarations.filter(\.group.isStandard))
    #expect(
      phone.names == [
        "people", "visits", "target_visits", "hits", "hit_rate", "hit_rate_macro", "hit_at_3", "mrr", "mrr_macro",
        "coverage", "rotations", "rotations_per_day", "relevance_visits", "relevance_honoured",
        "suppression_violations", "windows", "windows_surfaced", "median_time_to_surface_s", "exposure_gini",
      ])
    #expect(
      phone.statistics.map(\.name) == [
        "hit_rate", "hit_at_3", "mrr", "coverage", "rotations_per_day", "relevance_honoured", "windows_surfaced",
        "exposure_gini", "suppression_violations",
      ])
    // The watch's metrics follow, in their own group (present only with a watch source).
    #expect(
      MetricCatalog.standard.names == phone.names + ["cards_per_visit", "any_card_hit_rate", "mean_hit_position"])
    #expect(
      UnitMetric.standard.map(\.name)
        == phone.statistics.map(\.name) + ["cards_per_visit", "any_card_hit_rate", "mean_hit_position"])
    #expect(MetricCatalog.standard.daily.map(\.name) == ["visits", "target_visits", "hits", "hit_rate", "rotations"])
    #expect(
      Set(TopTable.lowerIsBetter)
        == [
          "regret", "rotations", "rotations_per_day", "suppression_violations", "exposure_gini",
          "median_time_to_surface_s", "mean_hit_position",
        ])
  }

  @Test func aMetricDeclaredOnceReachesEveryTable() async {
    let (outline, results) = experiment(rotations: 0)
    var catalog = MetricCatalog.standard
    catalog.declarations.insert(visitsPerDay, at: 2)
    let runs = text(ExperimentTables.runs(outline, results, catalog: catalog))
    #expect(runs[0].hasPrefix("run_id,source,strategy,parameters,replicate,seed,people,visits,visits_per_day,target_visits,"))
    // a: 7 visits over 3 person-days.
    #expect(runs[1].hasPrefix("s|a|0,s,a,,0,1,2,7,\(NumberFormat.format(7.0 / 3)),7,"))
    let daily = text(ExperimentTables.daily(outline, results, catalog: catalog))
    #expect(daily[0].hasSuffix(",visits,visits_per_day,target_visits,hits,hit_rate,rotations"))
    let people = text(ExperimentTables.people(outline, results, catalog: catalog))
    #expect(people[0].hasPrefix("run_id,source,strategy,parameters,replicate,person,visits,visits_per_day,"))
    #expect(people[1].hasPrefix("s|a|0,s,a,,0,0,4,2,4,"))
    let grid = ResultGrid(outline: outline, results: results)
    let (summary, paired) = await StatisticsTables.tables(grid, jobs: 1, catalog: catalog)
    // Last by rank: per person 4/2 and 3/1, mean 2.5 over 2 people.
    #expect(text(summary).contains { $0.hasPrefix("s,a,,a,visits_per_day,2.5,") })
    #expect(text(paired).contains { $0.hasPrefix("s,b,,b,a,visits_per_day,0,") })
  }

  @Test func aGroupAppearsOnlyWhenSomeRunHasIt() async {
    var catalog = MetricCatalog.standard
    catalog.declarations.append(rotationShare)
    // Absent: every byte as with the standard catalog.
    let (calm, calmResults) = experiment(rotations: 0)
    #expect(ExperimentTables.runs(calm, calmResults, catalog: catalog) == ExperimentTables.runs(calm, calmResults))
    #expect(ExperimentTables.people(calm, calmResults, catalog: catalog) == ExperimentTables.people(calm, calmResults))
    let calmGrid = ResultGrid(outline: calm, results: calmResults)
    let with = await StatisticsTables.tables(calmGrid, jobs: 1, catalog: catalog)
    let without = await StatisticsTables.tables(calmGrid, jobs: 1)
    #expect(with.summary == without.summary && with.paired == without.paired)
    // Present: the column and the statistics rows.
    let (busy, busyResults) = experiment(rotations: 3)
    #expect(text(ExperimentTables.runs(busy, busyResults, catalog: catalog))[0].hasSuffix(",exposure_gini,rotation_share,regret"))
    let summary = await StatisticsTables.tables(ResultGrid(outline: busy, results: busyResults), jobs: 1, catalog: catalog).summary
    #expect(text(summary).contains { $0.hasPrefix("s,a,,a,rotation_share,") })
  }

  @Test func peopleCSVHasARowPerRunAndPerson() {
    let (outline, results) = experiment(rotations: 0)
    let lines = text(ExperimentTables.people(outline, results))
    #expect(
      lines[0]
        == "run_id,source,strategy,parameters,replicate,person,visits,target_visits,hits,hit_rate,hit_at_3,mrr,coverage,rotations,rotations_per_day,relevance_visits,relevance_honoured,suppression_violations,windows,windows_surfaced,exposure_gini"
    )
    #expect(lines.count == 5)
    // Person 0 of b: 3 hits of 4 target visits, Gini 0.25; person 1: Gini undefined.
    #expect(lines[3] == "s|b|0,s,b,,0,0,4,4,3,0.75,0,0,0,0,0,0,,0,0,,0.25")
    #expect(lines[4].hasSuffix(",0,0,,"))
  }
}
