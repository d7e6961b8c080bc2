import Foundation
import SmartStackKit
import Testing

/// The repository's root folder.
private let root = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A temporary folder with `Datasets` linked to the repository's, so that examples run as
/// written without writing into the repository.
private func exampleFolder() throws -> URL {
  let folder = try CLI.temporaryFolder()
  try FileManager.default.createSymbolicLink(
    at: folder.appendingPathComponent("Datasets"), withDestinationURL: root.appendingPathComponent("Datasets"))
  return folder
}

/// `smartstack evaluate` end to end: on a log `simulate` wrote, on the bundled
/// hand-written log, refusing a wrong log, and validating on a scenario.
@Suite("evaluate estimates strategies from exposure logs")
struct EvaluateCommandTests {
  @Test func aSimulatedLogIsEstimatedForEachTarget() throws {
    let folder = try exampleFolder()
    let sim = try CLI.run(
      ["simulate", "--scenario", "Datasets/scenarios/tiny.json", "--strategy", "softmax:base=mfu",
       "--emit-exposures", "ex.csv", "--quiet"], in: folder)
    #expect(sim.status == 0, "\(sim.stderr)")
    let log = try String(contentsOf: folder.appendingPathComponent("ex.csv"), encoding: .utf8)
    #expect(log.hasPrefix("logging_strategy,person,time,epoch_ms,candidates,shown,propensity,estimated,forced,reward,hit,target,action,swiped_to,want_app,rule\nsoftmax:base=mfu:temperature=1,"))
    // Version 2: the sidecar and the timelines beside the log.
    for companion in ["ex.sidecar.json", "ex.timelines.json"] {
      #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(companion).path), "\(companion)")
    }
    let result = try CLI.run(["evaluate", "--exposures", "ex.csv", "--strategy", "mfu,static", "--out", "ev"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let csv = try String(contentsOf: folder.appendingPathComponent("ev/estimates.csv"), encoding: .utf8)
    let lines = csv.split(separator: "\n")
    // dm, ips, snips, dr, pdis-1h, rr, rr-dr × 2 metrics × 2 targets.
    #expect(lines.count == 1 + 2 * 7 * 2)
    #expect(lines.contains { $0.hasPrefix("softmax:base=mfu:temperature=1,mfu,rr,tap_rate,") })
    #expect(lines.contains { $0.hasPrefix("softmax:base=mfu:temperature=1,static,rr-dr,hit_rate,") })
    // The table is printed, notes included; the model-free checks are written.
    #expect(result.stdout.contains("| mfu      | rr        |") && result.stdout.contains("on-policy value by rule replay"))
    #expect(try String(contentsOf: folder.appendingPathComponent("ev/checks.csv"), encoding: .utf8).hasPrefix("check,visits,effect,z,p_value,note\nnext-want,"))
    #expect(lines[1].hasPrefix("softmax:base=mfu:temperature=1,mfu,dm,tap_rate,"))
    // Run to run, byte for byte.
    let again = try CLI.run(["evaluate", "--exposures", "ex.csv", "--strategy", "mfu,static", "--out", "ev2"], in: folder)
    #expect(again.status == 0)
    #expect(try String(contentsOf: folder.appendingPathComponent("ev2/estimates.csv"), encoding: .utf8) == csv)
  }

  /// A context-bandit's exposure log carries the people's context (`ex.context.csv`,
  /// named by the sidecar); a target that reads context is evaluated with it, and
  /// without any context it is refused rather than run as if the person were nowhere.
  @Test func contextTargetsAreEvaluatedWithTheLogsContextOrRefused() throws {
    let folder = try exampleFolder()
    let sim = try CLI.run(
      ["simulate", "--scenario", "Datasets/scenarios/commuter-context.json", "--days", "2", "--strategy",
       "context-bandit", "--emit-exposures", "ex.csv", "--quiet"], in: folder)
    #expect(sim.status == 0, "\(sim.stderr)")
    let context = try String(contentsOf: folder.appendingPathComponent("ex.context.csv"), encoding: .utf8)
    #expect(context.hasPrefix("timestamp,user,signal,value\n"))
    let result = try CLI.run(
      ["evaluate", "--exposures", "ex.csv", "--strategy", "mfu,context-mfu", "--out", "ev", "--quiet"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let csv = try String(contentsOf: folder.appendingPathComponent("ev/estimates.csv"), encoding: .utf8)
    func estimate(_ prefix: String) -> String? {
      csv.split(separator: "\n").first { $0.contains(prefix) }.map { String($0.split(separator: ",")[4]) }
    }
    let mfu = try #require(estimate(",mfu,rr,hit_rate,"))
    let contextMFU = try #require(estimate(",context-mfu,rr,hit_rate,"))
    #expect(mfu != contextMFU)
    // The same log without its sidecar: no context anywhere.
    try FileManager.default.removeItem(at: folder.appendingPathComponent("ex.sidecar.json"))
    let refused = try CLI.run(
      ["evaluate", "--exposures", "ex.csv", "--strategy", "context-mfu", "--out", "ev2", "--quiet"], in: folder)
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("strategy 'context-mfu' reads context, and ex.csv has none"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("ev2/estimates.csv").path))
    // Given explicitly, the context file serves the one-visit estimators.
    let given = try CLI.run(
      ["evaluate", "--exposures", "ex.csv", "--context", "ex.context.csv", "--strategy", "context-mfu", "--out", "ev3",
       "--quiet"], in: folder)
    #expect(given.status == 0, "\(given.stderr)")
  }

  @Test func theExposureOptionLeavesSimulateOutputsUnchanged() throws {
    let folder = try exampleFolder()
    let args = ["simulate", "--scenario", "Datasets/scenarios/tiny.json", "--strategy", "random,mfu", "--quiet"]
    #expect(try CLI.run(args + ["--out", "a"], in: folder).status == 0)
    #expect(try CLI.run(args + ["--out", "b", "--emit-exposures", "ex.csv"], in: folder).status == 0)
    for file in ["runs.csv", "daily.csv"] {
      let a = try Data(contentsOf: folder.appendingPathComponent("a/\(file)"))
      let b = try Data(contentsOf: folder.appendingPathComponent("b/\(file)"))
      #expect(a == b, "\(file)")
    }
  }

  @Test func aWrongLogIsRefusedAtItsPlaceAndNothingIsWritten() throws {
    let folder = try CLI.temporaryFolder()
    let bad = "logging_strategy,person,time,candidates,shown,propensity,reward,hit\napp,ann,2026-03-02T08:00:00Z,a;b,a,0,1,1\n"
    try bad.write(to: folder.appendingPathComponent("bad.csv"), atomically: true, encoding: .utf8)
    let result = try CLI.run(["evaluate", "--exposures", "bad.csv", "--strategy", "mfu", "--out", "ev"], in: folder)
    #expect(result.status != 0)
    #expect(result.stderr.contains("bad.csv:2:36: propensity 0"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("ev/estimates.csv").path))
    let logger = try CLI.run(
      ["simulate", "--scenario", root.appendingPathComponent("Datasets/scenarios/tiny.json").path, "--strategy", "epsilon:base=bandit",
       "--emit-exposures", "x.csv"], in: folder)
    #expect(logger.status != 0)
    #expect(logger.stderr.contains("base=bandit is not allowed"), "\(logger.stderr)")
  }

  @Test func validationWritesATableWhereIPSIsUnbiased() throws {
    let folder = try exampleFolder()
    let result = try CLI.run(
      ["evaluate", "--validate", "Datasets/scenarios/tiny.json", "--strategy", "static,round-robin", "--replicates", "6",
       "--out", "val"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("IPS unbiased within its interval in 4 of 4 rows (family-wise: 4 of 4)"), "\(result.stderr)")
    let csv = try String(contentsOf: folder.appendingPathComponent("val/validation.csv"), encoding: .utf8)
    #expect(csv.hasPrefix("scenario,logging_strategy,strategy,estimator,metric,replicates,truth,estimate,bias,"))
    #expect(csv.split(separator: "\n")[0].hasSuffix(",unbiased,unbiased_familywise,bias_se"))
    let single = try CLI.run(
      ["evaluate", "--validate", "Datasets/scenarios/tiny.json", "--strategy", "static", "--replicates", "1", "--out", "val1"],
      in: folder)
    #expect(single.status == 64 && single.stderr.contains("a bias interval needs at least two"), "\(single.stderr)")
    let oneStep = try CLI.run(
      ["evaluate", "--validate", "Datasets/scenarios/tiny.json", "--strategy", "static", "--replicates", "3",
       "--no-history-rules", "--out", "val2"], in: folder)
    #expect(oneStep.status == 0, "\(oneStep.stderr)")
    let rows = try String(contentsOf: folder.appendingPathComponent("val2/validation.csv"), encoding: .utf8)
      .split(separator: "\n")
    // dm, ips, snips, dr, pdis-1h, rr, rr-dr × 2 metrics.
    #expect(rows.count == 1 + 14 && rows.dropFirst().allSatisfy { $0.hasPrefix("tiny:no-history-rules,random,static,") })
    let misplaced = try CLI.run(["evaluate", "--exposures", "x.csv", "--no-history-rules"], in: folder)
    #expect(misplaced.status == 64)
  }

  /// A version-1 log (no `action` column, no sidecar) still gives the one-visit
  /// estimates; rule replay asked for by name is refused at its header, naming the column.
  @Test func aVersion1LogRefusesRuleReplayNamingTheColumn() throws {
    let folder = try exampleFolder()
    let log = "Datasets/exposures/field-study.csv"
    let plain = try CLI.run(["evaluate", "--exposures", log, "--strategy", "mfu", "--out", "a"], in: folder)
    #expect(plain.status == 0, "\(plain.stderr)")
    #expect(plain.stderr.contains("version-1 exposure log (no 'action' column): rr and rr-dr left out"))
    let rows = try String(contentsOf: folder.appendingPathComponent("a/estimates.csv"), encoding: .utf8).split(separator: "\n")
    #expect(!rows.contains { $0.contains(",rr,") || $0.contains(",rr-dr,") })
    #expect(rows.contains { $0.contains(",mfu,ips,tap_rate,") })
    let header = try String(contentsOf: root.appendingPathComponent(log), encoding: .utf8).prefix { $0 != "\n" }
    let refused = try CLI.run(
      ["evaluate", "--exposures", log, "--strategy", "mfu", "--estimator", "ips,rr", "--out", "b"], in: folder)
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("\(log):1:\(header.utf8.count + 2): rr and rr-dr need the version-2 column 'action'"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("b/estimates.csv").path))
    let typo = try CLI.run(["evaluate", "--exposures", log, "--estimator", "RR", "--out", "c"], in: folder)
    #expect(typo.status == 64 && typo.stderr.contains("did you mean 'rr'?"), "\(typo.stderr)")
  }

  /// The folder is claimed like replay's: another evaluation is refused unless
  /// --overwrite, the same one replaces its own set, and `report` prints the table.
  @Test func theOutputFolderIsClaimedAndReportPrintsIt() throws {
    let folder = try exampleFolder()
    let validate = ["evaluate", "--validate", "Datasets/scenarios/tiny.json", "--strategy", "static", "--replicates", "2", "--out", "ev"]
    #expect(try CLI.run(validate, in: folder).status == 0)
    let manifest = try String(contentsOf: folder.appendingPathComponent("ev/manifest.json"), encoding: .utf8)
    #expect(manifest.contains("\"run\": \"evaluate\"") && manifest.contains("\"name\": \"validation.csv\""))
    #expect(try CLI.run(validate, in: folder).status == 0)
    let estimate = [
      "evaluate", "--exposures", "Datasets/exposures/field-study.csv", "--strategy", "mfu", "--timezone", "Europe/Berlin",
      "--out", "ev",
    ]
    let refused = try CLI.run(estimate, in: folder)
    #expect(refused.status == 73, "\(refused.stderr)")
    #expect(refused.stderr.contains("holds the reports of another run (smartstack evaluate"))
    let report = try CLI.run(["report", "ev"], in: folder)
    #expect(report.status == 0, "\(report.stderr)")
    #expect(report.stdout.hasPrefix("Estimator validation (validation.csv)"))
    #expect(try CLI.run(estimate + ["--overwrite"], in: folder).status == 0)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("ev").path).sorted()
    #expect(names == [".lock", "estimates.csv", "manifest.json"] || names == ["estimates.csv", "manifest.json"])
    #expect(try CLI.run(["report", "ev"], in: folder).stdout.contains("| mfu      | ips       | hit_rate |"))
  }

  /// Every `smartstack evaluate` and `--emit-exposures` example of `evaluate --help`,
  /// `simulate --help`, README.md, docs/counterfactual.md and Datasets/README.md runs as
  /// written, in order.
  @Test func everyCounterfactualExampleRuns() throws {
    var examples: [String] = []
    for command in ["evaluate", "simulate"] {
      // Help wraps long examples: a wrapped part starts at column 0, up to a blank line.
      var continuing = false
      for line in try CLI.run([command, "--help"]).stdout.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("  smartstack ") {
          examples.append(line.trimmingCharacters(in: .whitespaces))
          continuing = true
        } else if continuing && !line.isEmpty && !line.hasPrefix(" ") {
          examples[examples.count - 1] += " " + line
        } else {
          continuing = false
        }
      }
    }
    for doc in ["README.md", "docs/counterfactual.md", "Datasets/README.md"] {
      examples += try String(contentsOf: root.appendingPathComponent(doc), encoding: .utf8).split(separator: "\n")
        .map { $0.trimmingCharacters(in: .whitespaces) }
    }
    examples = examples.filter {
      $0.hasPrefix("smartstack evaluate ") || ($0.hasPrefix("smartstack simulate ") && $0.contains("--emit-exposures"))
    }
    #expect(examples.count >= 6)
    let folder = try exampleFolder()
    for example in examples {
      let args = example.split(separator: " ").dropFirst().map(String.init)
      let result = try CLI.run(args, in: folder)
      #expect(result.status == 0, "\(example): \(result.stderr)")
    }
  }
}

/// `batch --emit-exposures` writes one exposure log per scenario source and strategy and
/// leaves the experiment's own outputs as they are without it.
@Suite("batch writes exposure logs on request")
struct BatchExposureTests {
  @Test func oneLogPerScenarioAndStrategyAndTheRunsUnchanged() throws {
    let folder = try CLI.temporaryFolder()
    let config = root.appendingPathComponent("Datasets/experiments/tiny.json").path
    let plain = try CLI.run(["batch", config, "--out", "a", "--quiet"], in: folder)
    #expect(plain.status == 0, "\(plain.stderr)")
    let logged = try CLI.run(["batch", config, "--out", "b", "--emit-exposures", "x", "--quiet"], in: folder)
    #expect(logged.status == 0, "\(logged.stderr)")
    let a = try Data(contentsOf: folder.appendingPathComponent("a/runs.csv"))
    #expect(a == (try Data(contentsOf: folder.appendingPathComponent("b/runs.csv"))))
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("x").path)
      .filter { $0.hasSuffix(".csv") }.sorted()
    #expect(names == [
      "exposures-tiny-world-hour-of-week.csv", "exposures-tiny-world-hour-of-week_half-life-days_2.csv",
      "exposures-tiny-world-mfu.csv", "exposures-tiny-world-mru.csv", "exposures-tiny-world-oracle.csv",
      "exposures-tiny-world-random.csv",
    ])
    let evaluated = try CLI.run(
      ["evaluate", "--exposures", "x/exposures-tiny-world-random.csv", "--strategy", "mfu", "--out", "ev"], in: folder)
    #expect(evaluated.status == 0, "\(evaluated.stderr)")
  }

  /// The batch's own folder holds its reports as one set: exposure logs beside them would
  /// outlive an `--overwrite`, so that folder is refused before anything runs.
  @Test func theBatchsOwnFolderIsRefusedForExposures() throws {
    let folder = try CLI.temporaryFolder()
    let config = root.appendingPathComponent("Datasets/experiments/tiny.json").path
    let r = try CLI.run(["batch", config, "--out", "b", "--emit-exposures", "./b", "--quiet"], in: folder)
    #expect(r.status == 64, "\(r.stderr)")
    #expect(r.stderr.contains("is the batch's own output folder"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("b").path))
    let sub = try CLI.run(["batch", config, "--out", "b", "--emit-exposures", "b/exposures", "--quiet"], in: folder)
    #expect(sub.status == 0, "\(sub.stderr)")
  }

  /// A batch that fails (here: its folder holds another run's reports) writes no exposure
  /// log, and the exposure folder it would have created is gone again.
  @Test func aFailedBatchWritesNoExposures() throws {
    let folder = try CLI.temporaryFolder()
    let config = root.appendingPathComponent("Datasets/experiments/tiny.json").path
    #expect(try CLI.run(["batch", config, "--out", "b", "--seed", "1", "--quiet"], in: folder).status == 0)
    let r = try CLI.run(["batch", config, "--out", "b", "--seed", "2", "--emit-exposures", "x", "--quiet"], in: folder)
    #expect(r.status == 73, "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x").path))
  }

  /// An exposure folder that another run holds is refused before the batch runs, so the
  /// batch's reports are not written without their exposure logs.
  @Test func aHeldExposureFolderIsRefusedBeforeTheBatch() throws {
    let folder = try CLI.temporaryFolder()
    let config = root.appendingPathComponent("Datasets/experiments/tiny.json").path
    let exposures = folder.appendingPathComponent("x")
    try FileManager.default.createDirectory(at: exposures, withIntermediateDirectories: true)
    let held = try FolderLock(folder: exposures.path)
    defer { held.release() }
    let r = try CLI.run(["batch", config, "--out", "b", "--emit-exposures", "x", "--quiet"], in: folder)
    #expect(r.status == 75, "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("b/runs.csv").path))
  }
}
