import ArgumentParser
import Foundation
import SmartStackKit

/// `smartstack fit`: simulated people fitted to a log, and how far their simulation is
/// from it (docs/fit.md).
struct FitCommand: AsyncParsableCommand, RegistryCommand {
  static let configuration = CommandConfiguration(
    commandName: "fit",
    abstract: "Fit a scenario to a log (--out) and compare its simulation with the log (--report).",
    discussion: """
      Estimates, per cluster of similar people (k-means, seeded), the visit rate and want \
      probability by local hour of week, the apps wanted by weekday/weekend hour, the sleep \
      window and the stack, and writes an ordinary scenario file. --report DIR simulates it \
      with the log's people and days and writes DIR/fit-report.csv: visits per day, \
      donations by hour of week, app shares, inter-arrival times and session lengths \
      (KS or total variation against a tolerance), and each strategy's replayed against \
      simulated hit rate. See docs/fit.md.

      Examples:
        smartstack fit Datasets/logs/commuter --timezone Europe/Berlin --out fitted.json
        smartstack fit Datasets/logs/commuter --timezone Europe/Berlin --strategy mfu,hour-of-day \\
          --report reports/fit
      """)

  @Argument(help: "The log: a folder with donations.csv or donations.jsonl (and visits.csv, stack.json when there), or a donation log file.")
  var log: String

  @Option(help: "A visit log CSV (default: LOG/visits.csv when LOG is a folder holding one; without one every donation is a visit).")
  var visits: String?

  @Option(help: "A stack JSON file (default: LOG/stack.json when LOG is a folder holding one, else the 10 most donated kinds).")
  var stack: String?

  @Option(help: "The people's IANA time zone, for hours of week and days.")
  var timezone: String = "UTC"

  @Option(parsing: .unconditional, help: "Clusters of people (k-means); as many as there are people fits each person alone.")
  var clusters: Int = 1

  @Option(parsing: .unconditional, help: "Seed of the clustering, the scenario's seed and the report's simulations (at most 2^53).")
  var seed: UInt64 = 1

  @Option(help: "Write the fitted scenario to this JSON file.")
  var out: String?

  @Option(help: "Write fit-report.csv, fit-distributions.csv and the scenario it simulated into this folder.")
  var report: String?

  @Option(help: "With --report: simulate this scenario instead of fitting one.")
  var scenario: String?

  @Option(help: "With --report: strategies, comma-separated.")
  var strategy: [String] = ["mfu,mru,hour-of-day,hour-of-week,random"]

  @Option(parsing: .unconditional, help: "With --report: simulated replicates, pooled.")
  var replicates: Int = 1

  @Option(parsing: .unconditional, help: "With --report: seconds after a visit within which the next donation is its target (replay).")
  var horizon: Double = 300

  @Flag(help: "Print nothing but errors.")
  var quiet = false

  @Flag(help: "Replace the reports of another run in --report.")
  var overwrite = false

  static let reportFiles = ["fit-report.csv", "fit-distributions.csv", "scenario.json", "manifest.json"]

  func validate() throws {
    guard out != nil || report != nil else { throw ValidationError("give --out FILE (the fitted scenario), --report DIR, or both") }
    guard clusters >= 1 else { throw ValidationError("--clusters must be at least 1") }
    guard seed <= 1 << 53 else { throw ValidationError("--seed must be at most 2^53 (9007199254740992): the scenario stores it as a JSON number") }
    guard (1...100).contains(replicates) else { throw ValidationError("--replicates must be within 1...100") }
    guard (0...86_400).contains(horizon) else { throw ValidationError("--horizon must be within 0...86400 seconds") }
    if scenario != nil && report == nil { throw ValidationError("--scenario is read by --report: give --report DIR") }
    if scenario != nil && out != nil { throw ValidationError("--scenario skips the fit: --out has nothing to write") }
  }

  /// The donation, visit and stack files the arguments name.
  func inputFiles() throws -> (donations: String, visits: String?, stack: String?) {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: log, isDirectory: &isFolder) else {
      throw ValidationError("\(log): no such file or folder")
    }
    guard isFolder.boolValue else { return (log, visits, stack) }
    let folder = URL(fileURLWithPath: log)
    let candidates = ["donations.csv", "donations.jsonl"].map { folder.appendingPathComponent($0).path }
    guard let donations = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
      throw ValidationError("\(log): the folder holds no donations.csv or donations.jsonl")
    }
    func beside(_ name: String) -> String? {
      let path = folder.appendingPathComponent(name).path
      return FileManager.default.fileExists(atPath: path) ? path : nil
    }
    return (donations, visits ?? beside("visits.csv"), stack ?? beside("stack.json"))
  }

  func run(registry: StrategyRegistry) async throws {
    guard let zone = ZoneRules(identifier: timezone) else {
      throw ValidationError("unknown time zone '\(timezone)' (use an IANA name such as Europe/Berlin or UTC)")
    }
    let files = try inputFiles()
    let inputs = [files.donations] + [files.visits, files.stack, scenario].compactMap { $0 }
    if let out {
      try reportingErrors { try OutputPath.checkFile(out) }
      if let problem = InputOutputOverlap.problem(inputs: inputs, outputs: [("--out", out)]) {
        throw ValidationError(TerminalText.escapingControls(problem))
      }
    }
    if let report { try OutputFolder.check(report, files: Self.reportFiles, inputs: inputs) }
    let choices: [StrategyChoice]
    do {
      choices = try strategy.flatMap { try registry.parseList($0) }
    } catch let error as StrategyError {
      throw ValidationError(error.description)
    }
    let (donations, visitLog, stackSpec) = try reportingErrors {
      var localTimes = LocalTimeReport()
      let donations = try DonationLog.read(path: files.donations, format: nil, timeZone: zone, localTimes: &localTimes)
      try LocalTimeWarnings.report(localTimes, file: files.donations, zone: zone, strict: false)
      let visitLog = try files.visits.map { try VisitLog.read(path: $0, zone: zone) }
      let stackSpec = try files.stack.map { try StackSpec.read(path: $0) }
      return (donations, visitLog, stackSpec)
    }
    let observations: FitObservations
    let fitted: FittedScenario?
    do {
      observations = try FitObservations(log: donations, visitLog: visitLog, zone: zone)
      if scenario == nil {
        var options = FittedScenario.Options()
        options.clusters = clusters
        options.seed = seed
        options.stack = stackSpec
        options.name = "fit-" + URL(fileURLWithPath: log).deletingPathExtension().lastPathComponent
        fitted = try FittedScenario(observations, options: options)
      } else {
        fitted = nil
      }
    } catch let error as FitError {
      StandardError.write("error: \(error.description)")
      throw Exit.dataError
    }
    if let fitted, !quiet {
      for note in fitted.notes { StandardError.write("note: \(note)") }
    }
    let text = fitted?.jsonText()
    if let out, let text {
      try reportingErrors { try FileIO.writeAtomically(text, to: out) }
      if !quiet {
        StandardError.write(
          "fitted \(fitted!.personCount) people over \(fitted!.days) days as \(fitted!.personas.count) personas; wrote \(out)")
      }
    }
    guard let report else { return }
    let scenarioText: String
    let simulated: Scenario
    if let scenario {
      scenarioText = try reportingErrors { String(decoding: try FileIO.readBytes(scenario), as: UTF8.self) }
      simulated = try reportingErrors { try Scenario.read(path: scenario) }
    } else {
      scenarioText = text!
      simulated = try reportingErrors { try Scenario.read(bytes: Array(text!.utf8), file: "fitted scenario") }
    }
    let (claim, manifest) = try OutputFolder.claim(report, run: "fit", inputs: inputs, overwrite: overwrite)
    let held = try OutputFolder.lock(report, files: Self.reportFiles)
    var published = false
    defer { held.release(kept: published) }
    let result: FitReport
    do {
      result = try FitReport.run(
        FitReport.Inputs(
          log: donations, visitLog: visitLog, observations: observations, scenario: simulated, choices: choices,
          replicates: replicates, seed: seed, horizonSeconds: horizon))
    } catch let error as ReplayError {
      throw ValidationError(error.description)
    }
    try reportingErrors {
      try OutputFolder.publish(
        [
          OutputSet.File(name: "fit-report.csv", text: result.csv),
          OutputSet.File(name: "fit-distributions.csv", text: result.distributions),
          OutputSet.File(name: "scenario.json", text: scenarioText),
        ], into: held, claim: claim, manifest: manifest, jobs: 1, files: Self.reportFiles)
    }
    published = true
    if !quiet {
      StandardOutput.write(result.markdown)
      StandardError.write(
        "\(result.distributionsWithin ? "every" : "not every") distribution within tolerance; strategy orders \(result.ordersAgree ? "agree" : "differ"); wrote \(report)/fit-report.csv")
    }
  }
}
