import ArgumentParser
import Foundation
import SmartStackKit

/// `smartstack replay`: replays a donation log with ranking strategies.
struct ReplayCommand: AsyncParsableCommand, RegistryCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: "Replay a donation log with ranking strategies and write runs.csv and daily.csv.",
    discussion: """
      Each person's donations are replayed in time order. At every visit the strategy ranks \
      the person's stack and the top instance is shown; the visit's target is the instance \
      matched by the person's first donation at or after the visit within the horizon. \
      A hit is a visit that showed its target.

      Examples:
        smartstack replay --log Datasets/logs/commuter/donations.csv \\
          --visits Datasets/logs/commuter/visits.csv \\
          --stack Datasets/logs/commuter/stack.json \\
          --strategy mfu,mru,hour-of-day,oracle
        smartstack replay --log Datasets/logs/credit-card/donations.jsonl \\
          --visits sessions:5 --stack top:6 --warmup-days 2 --out reports/credit-card
        smartstack replay --log Datasets/logs/commuter/donations.csv \\
          --visits Datasets/logs/commuter/visits.csv \\
          --stack Datasets/logs/commuter/stack.json \\
          --timelines Datasets/timelines/commuter.json --out reports/timelines
        smartstack replay --log Datasets/logs/shift-worker/donations.csv \\
          --visits Datasets/logs/shift-worker/visits.csv \\
          --max-memory 128K --out reports/blocks

      A log bigger than twice --max-memory (less with --split) is read once to disk and replayed block by \
      block of people, with the same reports (docs/performance.md, "Streaming replay").
      """)

  @OptionGroup var input: ReplayInputOptions

  @Option(help: "Strategies, comma-separated, each NAME or NAME:PARAM=VALUE:... (see 'smartstack strategies'; default: all).")
  var strategy: [String] = []

  @Option(
    name: .customLong("smart-rotate"),
    help: "Smart Rotate: 'on' or 'off' (the widget shown at a person's first visit stays on top: a replayed log has no swipes). Default: the stack file's 'smartRotate', else on.")
  var smartRotate: String?

  @Option(
    name: .customLong("rotation-limit"),
    help: "The stack's rotation limit, applied by the engine as in simulation: 'none' (replay ranks freely at every visit) or PER_HOUR/PER_DAY rotations in any rolling hour/24 hours, e.g. 4/40 (the simulator's default); 0 for no limit on one. Default: the stack file's 'rotationLimit' (or 'developerMode': false, which means 4/40), else none.")
  var rotationLimit: String?

  @Option(help: "A time split, as batch's: 'train=A..B,validation=C..D,test=E..F' (local dates, inclusive; validation optional), 'rolling:folds=K:test-days=T' or 'per-person:TRAIN,VALIDATION,TEST'. Each scored window is replayed as its own source, LOG[split=WINDOW], and runs.csv and daily.csv gain a split column (docs/batch.md, \"Time splits\").")
  var split: String?

  @Option(parsing: .unconditional, help: "Master seed for the strategies' own randomness.")
  var seed: UInt64 = 1

  @Option(help: "Output folder (created if needed).")
  var out: String = "reports/replay"

  @Option(parsing: .unconditional, help: "Workers (default: the cores this process may use): strategies run in parallel, and a strategy's people are cut into blocks when there are fewer strategies than workers; the outputs are the same bytes for any number.")
  var jobs: Int = AvailableCores.count

  @Option(
    name: .customLong("max-memory"),
    help: "About how much memory the replay may hold of the log: a size such as 512M or 4G. A replay whose log and visit log are bigger than twice this (less with --split: each further window holds a plan of about a quarter of their size) reads them once to disk and replays their people block by block, each block within it; the reports are the same bytes either way (docs/performance.md, \"Streaming replay\"). Default: a quarter of the memory the process may use: the machine's, or its cgroup's limit (a container's, a Slurm job's) when smaller.")
  var maxMemory: String?

  @Flag(help: "Print nothing but errors.")
  var quiet = false

  @Flag(help: "Replace the reports of another run in --out (only the files its manifest.json lists are removed). Without it such a folder is refused; the same command run again replaces its own reports.")
  var overwrite = false

  func validate() throws {
    guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    _ = try memoryBudget()
    _ = try stackRules()
    _ = try timeSplit()
  }

  /// `--split` read (`ReplaySplit.parse`), nil without it.
  func timeSplit() throws -> TimeSplit? { try ReplaySplit.parse(split) }

  /// `base` (the stack file's rules, else `StackRuleSettings.unconstrained`) with
  /// `--smart-rotate` and `--rotation-limit` applied where given.
  func stackRules(over base: StackRuleSettings = .unconstrained) throws -> StackRuleSettings {
    var rules = base
    switch smartRotate {
    case nil: break
    case "on": rules.smartRotate = true
    case "off": rules.smartRotate = false
    case let other?: throw ValidationError("--smart-rotate must be 'on' or 'off', not '\(other)'")
    }
    switch rotationLimit {
    case nil: break
    case "none": rules.developerMode = true
    case let text?:
      let parts = text.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count == 2, let hour = Int(parts[0]), let day = Int(parts[1]),
        (0...10_000).contains(hour), (0...100_000).contains(day)
      else {
        throw ValidationError(
          "--rotation-limit must be 'none' or PER_HOUR/PER_DAY (whole numbers, e.g. 4/40), not '\(text)'")
      }
      rules.developerMode = false
      rules.rotationLimit = RotationLimit(perHour: hour, perDay: day)
    }
    return rules
  }

  func run(registry: StrategyRegistry) async throws {
    let choices: [StrategyChoice]
    do {
      choices =
        strategy.isEmpty
        ? try registry.allWithDefaults(having: input.strategyNeeds)
        : try strategy.flatMap { try registry.parseList($0) }
    } catch let error as StrategyError {
      throw ValidationError(error.description)
    }
    if input.scores == nil, choices.contains(where: { $0.type.name == ScoresStrategy.name }) {
      throw ValidationError("strategy '\(ScoresStrategy.name)' ranks by an outside model's scores: give --scores FILE")
    }
    let inputPaths = input.inputPaths
    try OutputFolder.check(out, files: OutputFolder.replayFiles, inputs: inputPaths)
    let budget = try memoryBudget()
    if try replaysInBlocks(budget: budget) {
      try await runInBlocks(choices: choices, inputPaths: inputPaths, budget: budget)
      return
    }
    let started = Instant.current
    // The loader hashes the inputs while it reads them: the manifest takes its digests. The
    // visit log is read last, once the plans have their donations and the donation log is
    // let go of, so the two logs are never held at once (docs/performance.md, "Memory").
    var loaded = try input.load(deferringVisits: true)
    var log = loaded.log
    var options = loaded.options
    loaded.log = DonationLog([])
    options.seed = seed
    options.stackRules = try stackRules(over: options.rules)
    let source = URL(fileURLWithPath: input.log).lastPathComponent
    // One source per scored window of --split (`ReplaySplit`), else the whole log.
    let windows = try timeSplit().map { try ReplaySplit.windows($0, log: log, zone: options.zone, source: source) }
    var plans: [(label: String, plan: ReplayPlan)] = []
    let planned = windows ?? [ReplaySplit.Window(label: source, point: "", scored: nil)]
    try await reportingReplayErrors {
      for window in planned {
        var windowOptions = options
        windowOptions.scoredWindow = window.scored
        plans.append((window.label, try ReplayPlan(donationsOf: log, options: windowOptions)))
      }
    }
    log = DonationLog([])  // release the columns early; the plans hold what they need
    // The last plan takes the visit log's rows over, and lets go of each chunk of them once
    // it has it per person (`ReplayPlan.addVisits` consumes them).
    let visits = try reportingErrors { try loaded.takeVisits() }
    for k in plans.indices.dropLast() { plans[k].plan.addVisits(visits) }
    plans[plans.count - 1].plan.addVisits(consume visits)
    let (claim, manifest) = try OutputFolder.claim(
      out, manifest: OutputFolder.manifest(run: "replay", inputs: loaded.digests, started: started),
      inputs: inputPaths, overwrite: overwrite)
    // Each window's plan says the same of the log: later windows add only new notes.
    var notes = plans[0].plan.notes
    for note in plans.dropFirst().flatMap(\.plan.notes) where !notes.contains(note) { notes.append(note) }
    for note in notes where !quiet { StandardError.write("note: \(note)") }
    let held = try OutputFolder.lock(out, files: OutputFolder.replayFiles)
    var published = false
    defer { held.release(kept: published) }
    let progress = ProgressReporter(label: "replay", unit: "runs", quiet: quiet)
    var records: [RunRecord] = []
    let total = plans.count * choices.count
    for (index, (label, plan)) in plans.enumerated() {
      let done = index * choices.count
      records += await Replay.runAll(plan, choices: choices, source: label, jobs: jobs) { finished, _ in
        progress.update(done: done + finished, total: total)
      }
    }
    try publish(
      records, windows: windows, held: held, claim: claim, manifest: manifest, people: plans[0].plan.people.count,
      visits: plans.map(\.plan.visitCount), donations: plans[0].plan.donations)
    published = true
  }

  /// Writes `runs.csv` and `daily.csv` of `records` (with a split column for `windows`)
  /// into the held folder as one set with its manifest, then, unless `--quiet`, prints the
  /// table and what was replayed (`visits` per window).
  func publish(
    _ records: [RunRecord], windows: [ReplaySplit.Window]?, held: OutputFolder.Held, claim: OutputClaim,
    manifest: CommandManifest, people: Int, visits: [Int], donations: Int
  ) throws {
    try reportingErrors {
      var runs = RunTables.runs(records)
      var daily = RunTables.daily(records)
      if let windows {
        runs = try ReplaySplit.withSplitColumn(runs, file: "runs.csv", windows: windows)
        daily = try ReplaySplit.withSplitColumn(daily, file: "daily.csv", windows: windows)
      }
      try OutputFolder.publish(
        [OutputSet.File(name: "runs.csv", text: runs), OutputSet.File(name: "daily.csv", text: daily)],
        into: held, claim: claim, manifest: manifest, jobs: jobs, files: OutputFolder.replayFiles)
    }
    if !quiet {
      StandardOutput.write(RunTables.markdown(records))
      let perWindow = windows.map { " (" + zip($0, visits).map { "\($0.point) \($1)" }.joined(separator: ", ") + ")" } ?? ""
      StandardError.write(
        "replayed \(people) people, \(visits.reduce(0, +)) visits\(perWindow), \(donations) donations; wrote \(out)/runs.csv and \(out)/daily.csv"
      )
    }
  }
}

/// The input options shared by `replay` and other commands that replay a log.
struct ReplayInputOptions: ParsableArguments {
  @Option(help: "The donation log (CSV or JSON Lines).")
  var log: String

  @Option(help: "Log format: csv or jsonl (default: by file extension).")
  var format: String?

  @Option(help: "Visits: 'donations' (one at each donation's instant, decided before that donation), 'sessions:MINUTES' (one at the first donation after a gap, decided before it), or a visit log CSV file (timestamp,user).")
  var visits: String = "donations"

  @Option(parsing: .unconditional, help: "Seconds after a visit within which the next donation is its target.")
  var horizon: Double = 300

  @Option(help: "The stack: 'all' (one instance per kind the person donates, in the order of first donation, each a candidate once donated; a person with more than 10 kinds is refused, as a stack holds 10 widgets), 'top:N' (the N most donated kinds in the warm-up), or a stack JSON file.")
  var stack: String = "all"

  @Option(name: .customLong("warmup-days"), parsing: .unconditional, help: "Days from each person's first donation that are observed but not scored.")
  var warmupDays: Double = 0

  @Option(help: "The people's IANA time zone, for naive timestamps and local-time features.")
  var timezone: String = "UTC"

  @Flag(
    help: "Make naive local times in the log that do not exist or exist twice in the time zone (a daylight-saving gap or fold), or that are read in UTC by default, errors instead of warnings."
  )
  var strictLocalTimes = false

  @Option(help: "Relevance timelines JSON; instance ids refer to stack instance ids (the kind for 'all' and 'top:N').")
  var timelines: String?

  @Option(help: "Scores from an outside model (CSV: user,timestamp,instance or kind,score; README, \"Scores from an outside model\"), ranked by the strategy 'scores'.")
  var scores: String?

  @Option(help: "Context changes (CSV or JSON Lines: timestamp,user,signal,value; docs/context.md): where each person is and what they do, read by context strategies such as 'context-mfu'.")
  var context: String?

  @OptionGroup var engine: EngineArguments

  func validate() throws {
    guard (0...31_622_400).contains(horizon) else {
      throw ValidationError("--horizon must be a number of seconds within 0...31622400 (366 days)")
    }
    guard (0...36_500).contains(warmupDays) else { throw ValidationError("--warmup-days must be within 0...36500") }
  }

  /// The strategy inputs the options give (`StrategyNeeds`).
  var strategyNeeds: StrategyNeeds {
    var needs: StrategyNeeds = []
    if scores != nil { needs.insert(.scores) }
    if context != nil { needs.insert(.context) }
    return needs
  }

  /// The input files named by the options, in option order, read from the texts alone
  /// (before any option is checked; `LogInput.files` lists the same once they are).
  var inputPaths: [String] {
    var paths = [log]
    if let visitLog { paths.append(visitLog) }
    if !(stack == "all" || stack.hasPrefix("top:")) { paths.append(stack) }
    if let timelines { paths.append(timelines) }
    if let scores { paths.append(scores) }
    if let context { paths.append(context) }
    return paths
  }

  /// `--visits` when it names a visit log file (neither `donations` nor `sessions:M`).
  var visitLog: String? { visits == "donations" || visits.hasPrefix("sessions:") ? nil : visits }

  /// `--timezone` read.
  ///
  /// - Throws: `ValidationError` when it is not an IANA zone name.
  func zone() throws -> ZoneRules {
    guard let zone = ZoneRules(identifier: timezone) else {
      throw ValidationError("unknown time zone '\(timezone)' (use an IANA name such as Europe/Berlin or UTC)")
    }
    return zone
  }

  /// The options as a design spells a log source (`LogInput`), each path as given: the
  /// `--visits` and `--stack` texts read as a config's are (`VisitSource.parse`,
  /// `StackSource.parse`).
  ///
  /// - Throws: `ValidationError` for an unknown `--timezone`, a `--format` other than csv
  ///   or jsonl, or a `--visits`/`--stack` spelling that `parse` refuses (in that order).
  func logInput() throws -> LogInput {
    _ = try zone()
    var input = LogInput(log: ConfigPath(asGiven: log))
    switch format {
    case nil: input.format = nil
    case "csv": input.format = .csv
    case "jsonl": input.format = .jsonl
    case let other?: throw ValidationError("--format must be 'csv' or 'jsonl', not '\(other)'")
    }
    input.visits = try Self.parsed("--visits", visits, VisitSource.parse).mapFile(ConfigPath.init(asGiven:))
    input.stack = try Self.parsed("--stack", stack, StackSource.parse).mapFile(ConfigPath.init(asGiven:))
    input.horizonSeconds = horizon
    input.warmupDays = warmupDays
    input.timezone = timezone
    input.timelines = timelines.map(ConfigPath.init(asGiven:))
    input.scores = scores.map(ConfigPath.init(asGiven:))
    input.context = context.map(ConfigPath.init(asGiven:))
    return input
  }

  /// Reads every input file with the one loader (`LogLoader`): the log, the replay options
  /// and the inputs' digests. The log's naive local times are warned about (or refused
  /// under `--strict-local-times`) as soon as the log is read. With `deferringVisits`, a
  /// visit log file is left unread (`LogLoader.load`, `LoadedLog.takeVisits`).
  func load(deferringVisits: Bool = false) throws -> LoadedLog {
    let input = try logInput()
    let zone = try zone()
    var loader = LogLoader()
    return try reportingErrors {
      try loader.load(input, engine: engine.options, deferringVisits: deferringVisits) { localTimes in
        try LocalTimeWarnings.report(localTimes, file: log, zone: zone, strict: strictLocalTimes)
      }
    }
  }
}

extension ReplayInputOptions {
  /// `parse(text)`, its error a usage error: `--stack top:N needs a whole number N in
  /// 1...1000, not 'top:0'`.
  static func parsed<Source>(
    _ option: String, _ text: String, _ parse: (String) throws(SourceSpellingError) -> Source
  ) throws -> Source {
    do {
      return try parse(text)
    } catch {
      throw ValidationError("\(option) \(error.form) needs \(error.requirement), not '\(error.text)'")
    }
  }
}
