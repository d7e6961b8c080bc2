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

@Suite("Experiment config")
struct ExperimentConfigTests {
  @Test func defaultsFillEverythingButTheSources() throws {
    let d = try ExperimentFixture.design(#"{"sources": [{"log": "log.csv"}]}"#)
    #expect(d.name == "exp")
    #expect(d.seed == 1)
    #expect(d.replicates == 3)
    // Every built-in strategy but `scores`, which needs a score file and runs only when listed.
    #expect(d.strategies.map(\.descriptor.name) == StrategyRegistry.builtIn.types.filter { $0.info.needs.isEmpty }.map { $0.name })
    #expect(d.strategies[d.baseline].descriptor.name == "mfu")
    #expect(d.trace == false)
    #expect(d.outputDirectory == nil)
    #expect(d.sources.map(\.name) == ["log"])
    guard case .log(let log) = d.sources[0].input else {
      Issue.record("not a log source")
      return
    }
    #expect(log.log.written == "log.csv")
    #expect(log.log.resolved.hasSuffix("/log.csv"))
    #expect(log.horizonSeconds == 300)
    #expect(log.visits == .donations)
    #expect(log.stack == .all)
    #expect(d.sources[0].engine == EngineOptions.toolkitDefaults)
    #expect(d.sources[0].engine.relevanceThreshold == 0.5, "one relevant moment for every command (issue 19)")
    #expect(d.cellCount == 1 * 12 * 3)  // 12 strategies: the 13 built-ins but `scores`
  }

  @Test func sourceSweepsExpandLastKeyFastestWithLabels() throws {
    let d = try ExperimentFixture.design(
      #"""
      {"sources": [{"name": "s", "log": "log.csv", "visits": ["donations", "sessions:30"],
                    "horizon": 60, "warmupDays": [0, 1]}],
       "strategies": ["mfu"], "engine": {"normaliserWindowDays": [null, 7]}}
      """#)
    #expect(
      d.sources.map(\.name) == [
        "s[visits=donations;warmupDays=0;normaliserWindowDays=all]",
        "s[visits=donations;warmupDays=0;normaliserWindowDays=7]",
        "s[visits=donations;warmupDays=1;normaliserWindowDays=all]",
        "s[visits=donations;warmupDays=1;normaliserWindowDays=7]",
        "s[visits=sessions:30;warmupDays=0;normaliserWindowDays=all]",
        "s[visits=sessions:30;warmupDays=0;normaliserWindowDays=7]",
        "s[visits=sessions:30;warmupDays=1;normaliserWindowDays=all]",
        "s[visits=sessions:30;warmupDays=1;normaliserWindowDays=7]",
      ])
    guard case .log(let last) = d.sources[7].input else { return }
    #expect(last.visits == .sessions(gapMinutes: 30))
    #expect(last.warmupDays == 1)
    #expect(last.horizonSeconds == 60)
    #expect(d.sources[7].engine.normaliserWindow == .days(7))
    #expect(d.sources[6].engine.normaliserWindow == .all)
  }

  @Test func strategyParameterSweepsExpandInWrittenOrder() throws {
    let d = try ExperimentFixture.design(
      #"""
      {"sources": [{"log": "log.csv"}],
       "strategies": ["mru", {"name": "bandit", "parameters": {"prior-beta": [1, 2], "buckets": [4, 6]}}],
       "baseline": "mru"}
      """#)
    #expect(
      d.strategies.map(\.descriptor.description) == [
        "mru",
        "bandit:buckets=4:prior-alpha=1:prior-beta=1",
        "bandit:buckets=6:prior-alpha=1:prior-beta=1",
        "bandit:buckets=4:prior-alpha=1:prior-beta=2",
        "bandit:buckets=6:prior-alpha=1:prior-beta=2",
      ])
    #expect(d.baseline == 0)
  }

  @Test func cellsAreSourceMajorThenStrategyThenReplicate() {
    let c = Cell.decode(17, strategies: 4, replicates: 3)
    // 17 = (1 × 4 + 1) × 3 + 2
    #expect(c == Cell(index: 17, source: 1, strategy: 1, replicate: 2))
    for index in 0..<60 {
      let cell = Cell.decode(index, strategies: 4, replicates: 3)
      #expect((cell.source * 4 + cell.strategy) * 3 + cell.replicate == index)
    }
  }

  @Test func everyProblemIsReportedAtItsValue() {
    let config = """
      {
        "replicates": 0,
        "sources": [
          {"log": "missing.csv", "horizon": [-5, 60]},
          {"log": "log.csv", "stack": "top:3", "timezone": "Mars/Base", "colour": 1}
        ],
        "strategies": ["mfu", "nope", {"name": "hour-of-week", "parameters": {"half-life-days": [1, -1]}}, "mfu"],
        "engine": {"relevanceThreshold": 2}
      }
      """
    let problems = ExperimentFixture.problems(config)
    #expect(problems.count == 9)
    #expect(problems.first == "2:17: replicates: expected an integer in 1...100000, found 0")
    #expect(
      problems[1].hasPrefix("4:13: sources[0].log: no such file \"missing.csv\" (looked for /"))
    #expect(
      Array(problems[2...]) == [
        "4:40: sources[0].horizon[0]: expected a number in 0...31622400, found -5",
        "5:54: sources[1].timezone: unknown time zone \"Mars/Base\" (use an IANA name such as \"Europe/Berlin\", or \"UTC\")",
        "5:67: sources[1]: unknown key \"colour\" (expected one of \"name\", \"log\", \"format\", \"visits\", \"horizon\", \"stack\", \"warmupDays\", \"timezone\", \"timelines\", \"scores\", \"context\", \"split\")",
        "7:25: strategies[1]: unknown strategy 'nope'; known: static, random, round-robin, mru, mfu, hour-of-day, hour-of-week, markov, relevance, bandit, smart-rotate, scores, clues, context-mfu, context-bandit, oracle",
        "7:95: strategies[2].parameters[\"half-life-days\"][1]: strategy 'hour-of-week': half-life-days=-1 is outside 0...3650",
        "7:102: strategies[3]: strategy mfu is listed twice (also strategies[0])",
        "8:36: engine.relevanceThreshold: expected a number in 0...1, found 2",
      ])
  }

  @Test func topStackNeedsAWarmUp() {
    #expect(
      ExperimentFixture.problems(
        #"{"sources": [{"log": "log.csv", "stack": "top:3"}], "strategies": ["mfu"]}"#)
        == [
          "1:42: sources[0].stack: stack \"top:3\" chooses each person's kinds from a warm-up: give \"warmupDays\" > 0"
        ])
  }

  @Test func duplicateStrategiesAndSourceNamesAreRefused() {
    #expect(
      ExperimentFixture.problems(
        #"{"sources": [{"log": "log.csv"}, {"log": "log.csv"}], "strategies": ["mfu", "mfu"]}"#)
        == [
          "1:42: sources[1].log: source name \"log\" is used twice (also sources[0].log); give each source a distinct \"name\"",
          "1:77: strategies[1]: strategy mfu is listed twice (also strategies[0])",
        ])
  }

  @Test func baselineMustBeAmongTheStrategies() {
    #expect(
      ExperimentFixture.problems(
        #"{"sources": [{"log": "log.csv"}], "strategies": ["mru"], "baseline": "oracle"}"#)
        == [
          "1:70: baseline: the baseline \"oracle\" is not among the strategies; add it to \"strategies\" or choose another baseline"
        ])
    #expect(
      ExperimentFixture.problems(#"{"sources": [{"log": "log.csv"}], "strategies": ["mru"]}"#)
        == [
          "1:1: baseline: the baseline \"mfu\" (the default) is not among the strategies; add it to \"strategies\" or set \"baseline\""
        ])
  }

  /// A scenario source is read when sources are loaded: a broken scenario file reports
  /// its own diagnostics; days beyond the scenario maximum are a config error.
  @Test func scenarioSourcesAreValidated() throws {
    let folder = try ExperimentFixture.folder()
    try ExperimentFixture.write("{}", "world.json", in: folder)
    let path = try ExperimentFixture.write(
      #"{"sources": [{"scenario": "world.json", "days": 7}], "strategies": ["mfu"]}"#, "exp.json",
      in: folder)
    let design = try ExperimentConfig.read(path: path)
    #expect(throws: DiagnosticList.self) { try SourceLoader.load(design) }
    let tooLong = try ExperimentFixture.write(
      #"{"sources": [{"scenario": "world.json", "days": 400}], "strategies": ["mfu"]}"#, "long.json",
      in: folder)
    do {
      _ = try ExperimentConfig.read(path: tooLong)
      Issue.record("400 days accepted")
    } catch let list as DiagnosticList {
      #expect(list.diagnostics.map(\.message).contains { $0.hasPrefix("sources[0].days:") })
    }
  }

  @Test func commandLineOverridesTheFile() throws {
    let config =
      #"{"seed": 5, "replicates": 2, "sources": [{"log": "log.csv"}], "strategies": ["mfu", "mru"], "outputs": {"trace": true, "dir": "out"}}"#
    let d = try ExperimentFixture.design(
      config,
      overrides: ExperimentOverrides(
        seed: 9, replicates: 4, strategies: ["oracle,mru", "mfu"], baseline: "mru", trace: false))
    #expect(d.seed == 9)
    #expect(d.replicates == 4)
    #expect(d.strategies.map(\.descriptor.description) == ["oracle", "mru", "mfu"])
    #expect(d.baseline == 1)
    #expect(d.trace == false)
    #expect(d.outputDirectory?.hasSuffix("/out") == true)
    let file = try ExperimentFixture.design(config)
    #expect(file.seed == 5 && file.replicates == 2 && file.trace)
  }

  @Test func badOverridesAreUsageErrors() {
    let config = #"{"sources": [{"log": "log.csv"}], "strategies": ["mfu", "mru"]}"#
    #expect(throws: ExperimentUsageError.self) {
      try ExperimentFixture.design(config, overrides: ExperimentOverrides(strategies: ["mru,nope"]))
    }
    #expect(throws: ExperimentUsageError.self) {
      try ExperimentFixture.design(config, overrides: ExperimentOverrides(strategies: ["mru"]))
    }
    #expect(throws: ExperimentUsageError.self) {
      try ExperimentFixture.design(config, overrides: ExperimentOverrides(baseline: "oracle"))
    }
  }

  @Test func invalidJSONIsReportedWhereItBreaks() {
    #expect(ExperimentFixture.problems("{\"sources\": [}\n").count == 1)
    #expect(ExperimentFixture.problems("{\"sources\": [}\n").first?.hasPrefix("1:14: ") == true)
  }
}

@Suite("Experiment config keys")
struct ExperimentConfigKeyTests {
  @Test func topLevelKeysAreListedInTheirDocumentedOrder() throws {
    let problems = ExperimentFixture.problems(
      #"{"sources": [{"log": "log.csv"}], "zzzzzz": 1}"#)
    #expect(
      problems == [
        #"1:35: unknown key "zzzzzz" (expected one of "name", "description", "seed", "replicates", "baseline", "sources", "strategies", "engine", "outputs")"#
      ])
  }

  @Test func aNullStrategyParameterIsReportedAtTheValue() {
    let problems = ExperimentFixture.problems(
      #"{"sources": [{"log": "log.csv"}], "strategies": ["mfu", {"name": "hour-of-week", "parameters": {"half-life-days": null}}]}"#
    )
    #expect(
      problems == [
        #"1:115: strategies[1].parameters["half-life-days"]: expected a number, found null"#
      ])
  }
}
