import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackExperiments

/// Issue 32 item 2: tuning on the validation window (docs/batch.md, "Tuning").
enum TuningFixture {
  static let split = #"{"train": "2026-03-02..2026-03-05", "validation": "2026-03-06..2026-03-08", "test": "2026-03-09..2026-03-11"}"#

  /// `people` people over 2026-03-02 … 2026-03-11 (UTC), each with a daily routine of
  /// kinds A–D plus noise, drawn from `seed`; `redrawTestFrom` redraws every donation
  /// from 2026-03-09 on with another seed (the test window).
  static func log(people: Int = 4, seed: UInt64 = 1, redrawTest: UInt64? = nil) -> String {
    var rows: [(String, String, String)] = []
    let kinds = ["A", "B", "C", "D"]
    for day in 2...11 {
      var g = Xoshiro256StarStar(seed: day >= 9 && redrawTest != nil ? redrawTest! &* 1000 &+ UInt64(day) : seed &* 1000 &+ UInt64(day))
      for p in 0..<people {
        for hour in [7, 8, 12, 18, 21] where g.nextInt(below: 4) != 0 {
          let minute = g.nextInt(below: 60)
          let kind = g.nextInt(below: 3) == 0 ? kinds[g.nextInt(below: 4)] : kinds[(hour + p) % 4]
          rows.append((String(format: "2026-03-%02dT%02d:%02d:00Z", day, hour, minute), "p\(p)", kind))
        }
      }
    }
    // Anchors keep the log's dates whatever is drawn.
    rows.append(("2026-03-02T00:00:00Z", "p0", "A"))
    rows.append(("2026-03-11T23:59:00Z", "p0", "A"))
    rows.sort { ($0.0, $0.1) < ($1.0, $1.1) }
    return "timestamp,user,kind\n" + rows.map { "\($0.0),\($0.1),\($0.2)\n" }.joined()
  }

  static let strategies = #"""
    ["mfu",
     {"name": "hour-of-week", "tune": {"parameters": {"half-life-days": {"min": 0.25, "max": 28, "scale": "log"}}, "search": "random", "trials": 5}},
     {"name": "smart-rotate", "tune": {"parameters": {"w-behaviour": {"min": 0, "max": 4}, "day-weight": {"min": 0, "max": 4}}, "search": "halving", "trials": 9}}]
    """#

  static func config(strategies: String = strategies, seed: Int = 1, split: String = split) -> String {
    #"{"name": "t", "seed": \#(seed), "replicates": 1, "sources": [{"name": "s", "log": "log.csv", "split": \#(split)}], "strategies": \#(strategies)}"#
  }

  /// The tuned design and its trials for `config` over `log`.
  static func tune(config: String = config(), log: String = log(), jobs: Int = 2) async throws -> (
    ExperimentDesign, [Tuner.Trial]
  ) {
    let (design, sources) = try SplitFixture.sources(config: config, log: log)
    return try await Tuner.tune(design, sources: sources, jobs: jobs)
  }
}

@Suite("Tuning chooses on the validation window only")
struct TuningLeakTests {
  @Test func changingDonationsAndVisitsInsideTheTestWindowCannotChangeTheChosenParameters() async throws {
    let (design, trials) = try await TuningFixture.tune()
    #expect(!trials.isEmpty)
    let chosen = design.strategies.map(\.descriptor.description)
    for redraw: UInt64 in [2, 3, 4] {
      let log = TuningFixture.log(redrawTest: redraw)
      #expect(log != TuningFixture.log())
      let (other, otherTrials) = try await TuningFixture.tune(log: log)
      #expect(other.strategies.map(\.descriptor.description) == chosen)
      #expect(Tuner.csv(otherTrials) == Tuner.csv(trials))
    }
  }

  @Test func theTestWindowStillSeesTheChangeSoTheFixtureCanDetectALeak() async throws {
    // The redrawn test days change the test metrics: the invariance above is not vacuous.
    let (a, sa) = try SplitFixture.sources(config: TuningFixture.config(), log: TuningFixture.log())
    let (_, sb) = try SplitFixture.sources(config: TuningFixture.config(), log: TuningFixture.log(redrawTest: 2))
    let test = a.sources.firstIndex { $0.name.hasSuffix("[split=test]") }!
    let mfu = a.strategies[0]
    #expect(try sa[test].run(mfu, replicate: 0, seed: 1).values.map(RunTables.cell) != sb[test].run(mfu, replicate: 0, seed: 1).values.map(RunTables.cell))
  }
}

@Suite("Searches: seeded random draws, grids, successive halving")
struct TuningSearchTests {
  static func parameter(_ name: String, _ range: ClosedRange<Double>, integer: Bool = false) -> TuneSpec.Parameter {
    TuneSpec.Parameter(name: name, values: [], range: range, logScale: false, integer: integer)
  }

  @Test func randomSearchIsReproducibleWithASeedAndDiffersWithAnother() {
    let spec = TuneSpec(parameters: [Self.parameter("a", 0...10), Self.parameter("b", 1...2)], search: .random, trials: 8)
    let one = spec.configurations(seed: 1, strategy: "x")
    #expect(one.count == 8)
    #expect(spec.configurations(seed: 1, strategy: "x") == one)
    #expect(spec.configurations(seed: 2, strategy: "x") != one)
    #expect(spec.configurations(seed: 1, strategy: "y") != one)
    #expect(one.allSatisfy { (0...10).contains($0[0]) && (1...2).contains($0[1]) })
  }

  @Test func integerParametersAreRoundedAndDrawnOnce() {
    let spec = TuneSpec(parameters: [Self.parameter("n", 0...3, integer: true)], search: .random, trials: 50)
    let values = spec.configurations(seed: 1, strategy: "x").map { $0[0] }
    #expect(values.sorted() == [0, 1, 2, 3])
  }

  @Test func aGridTriesEveryCombinationTheLastParameterFastest() {
    var a = Self.parameter("a", 1...2)
    a.values = [1, 2]
    var b = Self.parameter("b", 0...9)
    b.values = [0, 5, 9]
    let spec = TuneSpec(parameters: [a, b], search: .grid)
    #expect(spec.configurations(seed: 1, strategy: "x") == [[1, 0], [1, 5], [1, 9], [2, 0], [2, 5], [2, 9]])
  }

  @Test func halvingKeepsOneInEtaPerRungOnEtaTimesThePeople() async throws {
    #expect(TuneSpec(parameters: [], search: .halving, trials: 27).rungSizes(configurations: 27) == [27, 9, 3, 1])
    #expect(TuneSpec(parameters: [], search: .halving, trials: 10, eta: 2).rungSizes(configurations: 10) == [10, 5, 3, 2, 1])
    #expect(TuneSpec(parameters: [], search: .random).rungSizes(configurations: 16) == [16])
    let strategies = #"["mfu", {"name": "smart-rotate", "tune": {"parameters": {"w-behaviour": {"min": 0, "max": 4}, "all-weight": {"min": 0, "max": 4}}, "search": "halving", "trials": 27}}]"#
    let (_, trials) = try await TuningFixture.tune(
      config: TuningFixture.config(strategies: strategies), log: TuningFixture.log(people: 9))
    let rungs = (0...3).map { r in trials.filter { $0.rung == r } }
    #expect(rungs.map(\.count) == [27, 9, 3, 1])
    #expect(rungs.map { $0.first!.people } == [1, 1, 3, 9])
    // Each rung's trials are the best of the previous rung's (ties by trial number).
    for r in 1...3 {
      let ranked = rungs[r - 1].sorted { Tuner.better($0.mean, $1.mean) || (!Tuner.better($1.mean, $0.mean) && $0.trial < $1.trial) }
      #expect(Set(rungs[r].map(\.trial)) == Set(ranked.prefix(rungs[r].count).map(\.trial)))
    }
    #expect(trials.filter(\.chosen).map(\.rung) == [3])
  }
}

@Suite("Tuned batches write tuning.csv and report the chosen values on test")
struct TuningBatchTests {
  @Test func theChosenParametersRunOnTestAndTheOutputsDoNotDependOnJobs() async throws {
    let folder = try SplitFixture.folder(config: TuningFixture.config(), log: TuningFixture.log())
    _ = try await run(folder, into: "one", jobs: 1)
    _ = try await run(folder, into: "two", jobs: 2)
    for file in ["runs.csv", "summary.csv", "paired.csv", "tuning.csv"] {
      let one = try String(contentsOfFile: folder + "/one/" + file, encoding: .utf8)
      #expect(one == (try String(contentsOfFile: folder + "/two/" + file, encoding: .utf8)), "\(file)")
    }
    let tuning = try String(contentsOfFile: folder + "/one/tuning.csv", encoding: .utf8)
    let chosen = tuning.split(separator: "\n").filter { $0.hasSuffix(",1") }.map { $0.split(separator: ",").map(String.init) }
    #expect(chosen.map { $0[0] } == ["hour-of-week", "smart-rotate"])
    let summary = try String(contentsOfFile: folder + "/one/summary.csv", encoding: .utf8)
    for row in chosen {
      #expect(summary.contains("s[split=test],test,\(row[0]),\(row[6]),"))
    }
  }
}

/// A user's strategy: donation counts raised to a tunable power (0: every candidate ties).
private struct Powered: RankingStrategy {
  static let info = StrategyInfo(
    name: "powered", summary: "test strategy: donation count ^ power",
    parameters: [StrategyParameterSpec("power", default: 0, range: 0...3, help: "exponent")])
  let power: Double
  init(parameters: StrategyParameters) { power = parameters["power"] }
  mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    ranking.setCandidateScores(context) { i in Foundation.pow(Double(context.features.donationCount[i]), power) }
  }
}

@Suite("A registered strategy is tuned as a built-in is")
struct TuningRegisteredStrategyTests {
  @Test func aGridOverARegisteredStrategysParameterChoosesTheBestMean() async throws {
    var registry = StrategyRegistry.builtIn
    registry.register(Powered.self)
    let folder = try SplitFixture.folder(
      config: TuningFixture.config(strategies: #"["mfu", {"name": "powered", "tune": {"parameters": {"power": [0, 1, 2]}, "search": "grid"}}]"#),
      log: TuningFixture.log())
    let design = try ExperimentConfig.read(path: folder + "/exp.json", registry: registry)
    let (tuned, trials) = try await Tuner.tune(design, sources: try SourceLoader.load(design), jobs: 2)
    #expect(trials.map(\.parameters) == ["power=0", "power=1", "power=2"])
    let chosen = try #require(trials.first { $0.chosen })
    #expect(trials.allSatisfy { !Tuner.better($0.mean, chosen.mean) })
    #expect(tuned.strategies[1].descriptor.parameters.canonical == chosen.parameters)
    #expect(tuned.strategies[1].descriptor.name == "powered")
  }
}

@Suite("A choice equal to another point stops the batch")
struct TuningDuplicateChoiceTests {
  @Test func aSearchThatChoosesAnotherPointsParametersIsRefusedBeforeAnyCell() async throws {
    let strategies = #"["mfu", "hour-of-week:half-life-days=7", {"name": "hour-of-week", "tune": {"parameters": {"half-life-days": [7]}, "search": "grid"}}]"#
    let folder = try SplitFixture.folder(config: TuningFixture.config(strategies: strategies), log: TuningFixture.log())
    await #expect(throws: BatchError.self) { _ = try await run(folder, into: "out") }
    #expect(!FileManager.default.fileExists(atPath: folder + "/out/runs.csv"))
  }
}

@Suite("A tune object is validated with located errors")
struct TuningConfigErrorTests {
  static func problems(_ strategies: String, split: String? = TuningFixture.split) -> [String] {
    let source = split.map { #"{"name": "s", "log": "log.csv", "split": \#($0)}"# } ?? #"{"name": "s", "log": "log.csv"}"#
    return SplitFixture.problems(#"{"name": "t", "sources": [\#(source)], "strategies": ["mfu", \#(strategies)]}"#)
  }

  @Test func aSourceWithoutAValidationWindowIsRefusedBecauseTuningWouldLeak() {
    let tune = #"{"name": "hour-of-week", "tune": {"parameters": {"half-life-days": {"min": 0, "max": 7}}}}"#
    #expect(Self.problems(tune, split: nil) == [
      "1:116: strategies[1].tune: cannot tune: source 's' has no validation window (it has no split). Tuning chooses parameters on the validation window and reports them on test; choosing on the reported windows would leak. Give every source a \"split\" with a \"validation\" window"
    ])
    let noValidation = #"{"train": "2026-03-02..2026-03-05", "test": "2026-03-09..2026-03-11"}"#
    #expect(Self.problems(tune, split: noValidation).first?.contains("its split has no validation window") == true)
  }

  @Test(arguments: [
    (#"{"parameters": {"half-life": {"min": 0, "max": 7}}}"#, "strategy 'hour-of-week' has no parameter \"half-life\" (known: half-life-days)"),
    (#"{"parameters": {"half-life-days": {"min": 0, "max": 7000}}}"#, "half-life-days=7000 is outside 0...3650"),
    (#"{"parameters": {"half-life-days": {"min": 7, "max": 1}}}"#, "min (7) is greater than max (1)"),
    (#"{"parameters": {"half-life-days": {"min": 0, "max": 7, "scale": "log"}}}"#, "\"scale\": \"log\" needs min > 0"),
    (#"{"parameters": {"half-life-days": {"min": 0, "max": 7}}, "search": "grid"}"#, "a grid takes a list of values"),
    (#"{"parameters": {"half-life-days": {"min": 0, "max": 7}}, "search": "bayes"}"#, "expected one of \"grid\", \"random\", \"halving\""),
    (#"{"parameters": {"half-life-days": {"min": 0, "max": 7}}, "metric": "rotations"}"#, "expected a metric where higher is better"),
    (#"{"parameters": {"half-life-days": {"min": 0, "max": 7}}, "eta": 3}"#, "\"eta\" applies only to"),
    (#"{"parameters": {"half-life-days": {"min": 0, "max": 7}}, "budget": 3}"#, "budget"),
  ])
  func aBadTuneObjectIsReportedWhereItIsWritten(tune: String, message: String) {
    let problems = Self.problems(#"{"name": "hour-of-week", "tune": \#(tune)}"#)
    #expect(problems.count == 1)
    #expect(problems.first?.contains(message) == true, "\(problems)")
    #expect(problems.first?.hasPrefix("1:") == true, "\(problems)")
  }

  @Test func aParameterBothFixedAndTunedOrASweepWithATuneIsRefused() {
    let fixed = #"{"name": "smart-rotate", "parameters": {"margin": 0.1}, "tune": {"parameters": {"margin": {"min": 0, "max": 1}}}}"#
    #expect(Self.problems(fixed).first?.contains("both fixed in \"parameters\" and tuned") == true)
    let swept = #"{"name": "smart-rotate", "parameters": {"margin": [0.1, 0.2]}, "tune": {"parameters": {"day-weight": {"min": 0, "max": 1}}}}"#
    #expect(Self.problems(swept).first?.contains("cannot also be swept") == true)
  }
}
