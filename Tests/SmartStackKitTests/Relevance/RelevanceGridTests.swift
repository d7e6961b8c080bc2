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

@Suite("Relevance grid")
struct RelevanceGridTests: RelevanceFixtures {
  func rows(
    _ file: TimelineFile, from: Double, to: Double, stepHours: Double,
    _ normaliser: PercentileNormaliser = PercentileNormaliser()
  ) throws -> [RelevanceGridRow] {
    let grid = try RelevanceGrid(
      from: at(hours: from), to: at(hours: to),
      stepMilliseconds: Int64(stepHours * Double(hourMs)))
    var rows: [RelevanceGridRow] = []
    file.evaluate(on: grid, normaliser: normaliser) { rows.append($0) }
    return rows
  }

  @Test func gridTimesRunFromFromByStepUpToAndIncludingTo() throws {
    let g = try RelevanceGrid(from: at(hours: 0), to: at(hours: 2), stepMilliseconds: hourMs)
    #expect(g.count == 3)
    #expect(g.time(at: 2) == at(hours: 2))
    let uneven = try RelevanceGrid(
      from: at(hours: 0), to: at(hours: 2.5), stepMilliseconds: hourMs)
    #expect(uneven.count == 3)
    let single = try RelevanceGrid(from: at(hours: 1), to: at(hours: 1), stepMilliseconds: 1)
    #expect(single.count == 1)
    #expect(single.rowCount(instances: 4) == 4)
    let huge = try RelevanceGrid(
      from: Instant(milliseconds: .min), to: Instant(milliseconds: .max), stepMilliseconds: 1)
    #expect(huge.count == Int.max)
    #expect(huge.rowCount(instances: 2) == nil)
  }

  @Test func gridRejectsFromAfterToAndNonPositiveSteps() {
    #expect(throws: RelevanceGrid.Problem.fromAfterTo) {
      try RelevanceGrid(from: at(hours: 2), to: at(hours: 1), stepMilliseconds: 1)
    }
    #expect(throws: RelevanceGrid.Problem.stepNotPositive) {
      try RelevanceGrid(from: at(hours: 1), to: at(hours: 2), stepMilliseconds: 0)
    }
    #expect(throws: RelevanceGrid.Problem.stepNotPositive) {
      try RelevanceGrid(from: at(hours: 1), to: at(hours: 2), stepMilliseconds: -5)
    }
  }

  @Test func basketballGameIsActiveForItsThreeHoursThenExpires() throws {
    let file = TimelineFile(instances: [
      .init(id: "game", entries: [entry(19, 1, durationHours: 3), entry(20, nil), entry(21, nil)])
    ])
    let r = try rows(file, from: 18, to: 23, stepHours: 1)
    #expect(
      r.map(\.state) == [
        .none, .active(score: 1), .active(score: 1), .active(score: 1), .expired, .expired,
      ])
    #expect(r.map(\.percentile) == [nil, 0.5, 0.5, 0.5, nil, nil])
    #expect(r.map(\.time) == (18...23).map { at(hours: Double($0)) })
  }

  @Test func purchasesPercentilesGrowWithTheHistory() throws {
    let file = TimelineFile(instances: [
      .init(
        id: "acme", kind: "RecentPurchases", entries: [entry(9, 10), entry(12, 500), entry(15, 20)])
    ])
    let r = try rows(file, from: 9, to: 15, stepHours: 3)
    #expect(r.map(\.state) == [.active(score: 10), .active(score: 500), .active(score: 20)])
    #expect(r.map(\.percentile) == [0.5, 0.75, 0.5])
  }

  @Test func rowsAreOrderedByTimeThenFileOrderAndKindScopePools() throws {
    let file = TimelineFile(instances: [
      .init(id: "b", kind: "K", entries: [entry(0, 1)]),
      .init(id: "a", kind: "K", entries: [entry(1, 3), entry(0, 5)]),
      .init(id: "c", entries: [entry(1, 0)]),
    ])
    let byInstance = try rows(file, from: 0, to: 1, stepHours: 1)
    #expect(byInstance.map(\.instance) == [0, 1, 2, 0, 1, 2])
    #expect(
      byInstance.map(\.state.name) == [
        "active", "active", "none", "active", "active", "suppressed",
      ])
    // Instance a at 1 h: {5, 3} -> 3 is the lower one.
    #expect(byInstance.map(\.percentile) == [0.5, 0.5, nil, 0.5, 0.25, 0.5])
    let byKind = try rows(file, from: 0, to: 1, stepHours: 1, PercentileNormaliser(scope: .kind))
    // Kind K at 0 h: {1, 5}; at 1 h: {1, 5, 3}. Kind c is alone.
    let expectedByKind: [Double?] = [0.25, 0.75, nil, 0.5 / 3, 1.5 / 3, 0.5]
    #expect(byKind.map(\.percentile) == expectedByKind)
  }

  @Test func aDayWindowForgetsOldScores() throws {
    let file = TimelineFile(instances: [
      .init(id: "x", entries: [entry(0, 100), entry(12, 1)])
    ])
    let r = try rows(file, from: 12, to: 36, stepHours: 12, PercentileNormaliser(window: .days(1)))
    // 12 h: {100, 1} -> 0.25; 24 h: the 0 h score left the window -> {1}; 36 h: the
    // 12 h score left it too, but the current score counts itself -> {1} -> 0.5.
    #expect(r.map(\.percentile) == [0.25, 0.5, 0.5])
    #expect(r.map(\.state) == [.active(score: 1), .active(score: 1), .active(score: 1)])
  }

  @Test func noInstancesGiveNoRows() throws {
    #expect(try rows(TimelineFile(instances: []), from: 0, to: 10, stepHours: 1).isEmpty)
  }

  @Test func kindIndicesFollowFirstAppearance() {
    let file = TimelineFile(instances: [
      .init(id: "1", kind: "Z", entries: []), .init(id: "2", kind: "A", entries: []),
      .init(id: "3", kind: "Z", entries: []), .init(id: "4", entries: []),
    ])
    let k = file.kindIndices()
    #expect(k.indices == [0, 1, 0, 2])
    #expect(k.kinds == ["Z", "A", "4"])
  }
}
