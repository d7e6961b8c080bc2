import Foundation
import SmartStackTesting
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

// The README's "Adding a strategy" examples, verbatim (a test below checks that the
// README still holds these lines).

/// `recent-hour`: donations in the last 60 minutes.
struct RecentHourStrategy: RankingStrategy {
  static let info = StrategyInfo(name: "recent-hour", summary: "most donations in the last hour")
  var recent: [[Int64]] = []

  init(parameters: StrategyParameters) {}

  mutating func begin(_ setup: StrategySetup) {
    recent = Array(repeating: [], count: setup.instanceCount)
  }

  mutating func observe(_ event: ObservedEvent, context: StackContext) {
    guard case .donation(_, let instances) = event else { return }
    for i in instances { recent[Int(i)].append(context.now) }
  }

  mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    ranking.setCandidateScores(context) { i in
      Double(recent[i].filter { $0 > context.now - 3_600_000 }.count)
    }
  }
}

struct MostDonations: InstanceScoringStrategy {
  static let info = StrategyInfo(name: "most-donations", summary: "the candidate with the most donations")
  var reads: VisitInputs { .donations }
  init(parameters: StrategyParameters) {}
  func score(_ instance: InstanceView) -> Double { Double(instance.donationCount) }
}

@Suite("README strategy examples")
struct ReadmeStrategyTests {
  @Test func recentHourConforms() throws {
    let report = try StrategyConformance.check(RecentHourStrategy.self)
    #expect(report.difference == nil, "\(report)")
  }

  @Test func mostDonationsConformsAndDecidesLikeMFU() throws {
    let report = try StrategyConformance.check(MostDonations.self)
    #expect(report.difference == nil, "\(report)")
    #expect(report.reusedVisits > 5000)
    let mfu = try StrategyConformance.check(MostFrequentlyUsedStrategy.self)
    #expect(mfu.visits == report.visits)
  }

  @Test func registeringTakesOneLine() throws {
    var registry = StrategyRegistry.builtIn
    registry.register(RecentHourStrategy.self)
    #expect(try registry.parse("recent-hour").descriptor.name == "recent-hour")
  }

  /// The README shows these examples line for line.
  @Test func theReadmeShowsTheseExamples() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    func block(_ from: String, _ to: String) -> [String] {
      let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let start = lines.firstIndex { $0.hasPrefix(from) }!
      let end = lines[start...].firstIndex { $0 == to }!
      return Array(lines[start...end])
    }
    let normalised = readme.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
    for example in [block("/// `recent-hour`", "}"), block("struct MostDonations", "}")] {
      let text = example.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        .joined(separator: "\n")
      #expect(normalised.contains(text), "README lacks:\n\(text)")
    }
    #expect(readme.contains("StrategyConformance.check(RecentHourStrategy.self)"))
  }
}
