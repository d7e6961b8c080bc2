import ArgumentParser
import Foundation
import SmartStackKit

/// `smartstack import FORMAT INPUT --out LOG [--visits-out VISITS]`: turns an app-usage
/// dataset into a donation log and a visit log for `smartstack replay`.
///
/// Exit codes: 0 imported (counts on stderr, `--json` summary on stdout); 64 bad usage;
/// 65 bad input data (every problem on stderr as FILE:LINE:COLUMN, or a corrupt, truncated
/// or too large archive); 66 the input cannot be read; 73 an output cannot be written.
/// Nothing is written unless the whole import succeeds.
struct ImportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Import an app-usage dataset as a donation log and a visit log.",
    discussion: """
      The input may be plain text, gzip (.gz) or a tar archive inside gzip (.tar.gz, .tgz); \
      the container is recognised by content. The donation log is CSV, or JSON Lines when \
      --out ends in .jsonl. The visit log (--visits-out) is CSV timestamp,user in UTC. \
      Both are written atomically, and only when the whole input is valid.

      Example:
        smartstack import lsapp lsapp.tsv.gz --out lsapp.csv --visits-out lsapp-visits.csv
        smartstack replay --log lsapp.csv --visits lsapp-visits.csv
      """,
    subcommands: [
      ImportLSAppCommand.self, ImportAppEventsCommand.self, ImportKnowledgeCCommand.self,
      ImportPowerLogCommand.self, ImportBiomeCommand.self,
    ])

  /// The formats, as the subcommands name them (each sets its `commandName`).
  static var formatNames: [String] {
    configuration.subcommands.compactMap { $0.configuration.commandName }
  }

  /// The usage problem of `smartstack ARGUMENTS` when they name `import` with a format
  /// that does not exist, else nil. Checked before parsing (`SmartStack.main`): each
  /// format is a subcommand, and for an unknown one ArgumentParser says only
  /// "2 unexpected arguments".
  static func unknownFormatProblem(_ arguments: [String]) -> String? {
    guard arguments.count >= 2, arguments[0] == configuration.commandName else { return nil }
    let format = arguments[1]
    if format.hasPrefix("-") || format == "help" || formatNames.contains(format) { return nil }
    return "unknown dataset format '\(format)': use \(formatNames.joined(separator: " or ")),"
      + " e.g. 'smartstack import lsapp FILE --out LOG'"
  }
}

/// The options every import format takes.
struct ImportOptions: ParsableArguments {
  @Argument(help: "The dataset file (plain, .gz or .tar.gz; a SQLite database for knowledgec and powerlog).")
  var input: String

  @Option(help: "The donation log to write: CSV, or JSON Lines when it ends in .jsonl.")
  var out: String

  @Option(name: .customLong("visits-out"), help: "Also write the visits as CSV timestamp,user.")
  var visitsOut: String?

  @Option(
    help: ArgumentHelp(
      "The IANA time zone naive timestamps are read in (e.g. America/New_York).",
      valueName: "TZ"))
  var timezone = "UTC"

  @Flag(
    name: .customLong("skip-bad-rows"),
    help: "Count, list and skip rows with problems instead of failing.")
  var skipBadRows = false

  @Option(
    name: .customLong("max-expanded-bytes"),
    help: ArgumentHelp(
      "Refuse gzip input that expands beyond this size (bytes, or with K, M, G: powers of 1024).",
      valueName: "SIZE"))
  var maxExpandedBytes = "2G"

  @Option(help: "The file to read from a tar archive (default: its only file of the format).")
  var member: String?

  @Flag(help: "Print the counts as one JSON object on standard output.")
  var json = false

  @Flag(help: "Print nothing but errors and warnings (no progress, no counts; --json still prints its object).")
  var quiet = false

  @Option(
    help: ArgumentHelp(
      "Map bundle ids and intent classes to widget kinds: a CSV file with columns id,kind.",
      valueName: "FILE"))
  var kinds: String?

  func validate() throws {
    if ZoneRules(identifier: timezone) == nil {
      throw ValidationError(
        "unknown time zone '\(timezone)' (use an IANA name such as Europe/Berlin, or UTC)")
    }
    if Self.byteCount(maxExpandedBytes) == nil {
      throw ValidationError(
        "--max-expanded-bytes must be a positive whole number of bytes, optionally followed by K, M or G, not '\(maxExpandedBytes)'"
      )
    }
    if let visitsOut, Self.samePath(visitsOut, out) {
      throw ValidationError("--out and --visits-out name the same file '\(out)'")
    }
    try refuseOverwritingInputs([("--out", out)] + (visitsOut.map { [("--visits-out", $0)] } ?? []))
  }

  /// Refuses an output that resolves to the input, its `-wal`/`-shm`/`-journal`, a file
  /// inside an input folder, or the `--kinds` file (`InputOutputOverlap`).
  func refuseOverwritingInputs(_ outputs: [(option: String, path: String)]) throws {
    let inputs = [input] + (kinds.map { [$0] } ?? [])
    if let problem = InputOutputOverlap.problem(inputs: inputs, outputs: outputs) {
      throw ValidationError(TerminalText.escapingControls(problem))
    }
  }

  /// Refuses an output besides the logs (`--widgets-out`, `--context-out`) that names
  /// `--out`, `--visits-out`, one of `others` or an input.
  func refuseExtraOutput(_ option: String, _ path: String, others: [String] = []) throws {
    let outputs = [out] + (visitsOut.map { [$0] } ?? []) + others
    if outputs.contains(where: { Self.samePath(path, $0) }) {
      throw ValidationError("\(option) names the same file as another output: '\(path)'")
    }
    try refuseOverwritingInputs([(option, path)])
  }

  /// Checks an output besides the logs as `ImportRun` checks them: a file path, never a
  /// file of a report set.
  static func checkExtraOutput(_ path: String) throws {
    try OutputPath.checkFile(path)
    try ReportSetPath.check(path)
  }

  var zone: ZoneRules { ZoneRules(identifier: timezone) ?? .utc }
  var expansionLimit: Int { Self.byteCount(maxExpandedBytes) ?? ImportSource.defaultExpansionLimit }

  /// `123`, `64K`, `512M`, `2G` (also `2GB`, `2GiB`; case-insensitive) in bytes; nil when
  /// malformed, zero or beyond `Int`.
  static func byteCount(_ text: String) -> Int? {
    let upper = text.uppercased()
    var digits = Substring(upper)
    var multiplier = 1
    for (suffixes, scale) in [
      (["KIB", "KB", "K"], 1 << 10), (["MIB", "MB", "M"], 1 << 20), (["GIB", "GB", "G"], 1 << 30),
    ] {
      if let suffix = suffixes.first(where: { upper.hasSuffix($0) }) {
        digits = upper.dropLast(suffix.count)
        multiplier = scale
        break
      }
    }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      let value = Int(digits), value > 0
    else { return nil }
    let (bytes, overflow) = value.multipliedReportingOverflow(by: multiplier)
    return overflow ? nil : bytes
  }

  static func samePath(_ a: String, _ b: String) -> Bool {
    URL(fileURLWithPath: a).standardizedFileURL.path
      == URL(fileURLWithPath: b).standardizedFileURL.path
  }
}

/// `smartstack import lsapp`.
struct ImportLSAppCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lsapp",
    abstract: "Import the LSApp dataset (Aliannejadi et al., ACM TOIS 2021).",
    discussion: """
      Tab-separated user_id, session_id, timestamp, app_name, event_type with a header \
      row; timestamps are naive local times read in --timezone. Opened events become \
      donations (kind = app_name, user = user_id); the first event of each session becomes \
      a visit; Closed and User Interaction are counted; Broken rows are counted and \
      dropped. See docs/importers.md.
      """)

  @OptionGroup var options: ImportOptions

  func run() throws {
    var importer = LSAppImporter(timeZone: options.zone, skipBadRows: options.skipBadRows)
    try ImportRun(format: "lsapp", options: options, extensions: [".tsv"], unit: LSAppImporter.progressUnit) {
      importer.progress = $1
      return try importer.read($0)
    }.run()
  }
}

/// `smartstack import app-events`.
struct ImportAppEventsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "app-events",
    abstract: "Import a foreground-app event CSV (timestamp, user, app, event).",
    discussion: """
      Visit events (unlock, home) become visits; donation events (open, resume) become \
      donations of kind = app; counted events (close, pause) are counted. Events of \
      --launcher apps are visits when they are donation events; events of --system apps \
      are dropped and counted. Event names are matched case-insensitively. See \
      docs/importers.md.
      """)

  @OptionGroup var options: ImportOptions

  @Option(
    name: .customLong("launcher"),
    help: ArgumentHelp(
      "An app whose foreground events are Home Screen visits (repeatable).", valueName: "APP"))
  var launchers: [String] = []

  @Option(
    name: .customLong("system"),
    help: ArgumentHelp(
      "An app whose events are dropped and counted (repeatable).", valueName: "APP"))
  var systemApps: [String] = []

  @Option(
    name: .customLong("visit-events"),
    help: ArgumentHelp("Comma-separated events that are Home Screen visits.", valueName: "LIST"))
  var visitEvents = "unlock,home"

  @Option(
    name: .customLong("donation-events"),
    help: ArgumentHelp("Comma-separated events that are donations of the app.", valueName: "LIST"))
  var donationEvents = "open,resume"

  @Option(
    name: .customLong("counted-events"),
    help: ArgumentHelp("Comma-separated events that are only counted.", valueName: "LIST"))
  var countedEvents = "close,pause"

  var importer: AppEventsImporter {
    func list(_ text: String) -> [String] {
      text.split(separator: ",", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }.filter { !$0.isEmpty || text.contains(",") }
    }
    return AppEventsImporter(
      timeZone: options.zone, skipBadRows: options.skipBadRows,
      donationEvents: list(donationEvents),
      visitEvents: list(visitEvents), countedEvents: list(countedEvents), launcherApps: launchers,
      systemApps: systemApps)
  }

  func validate() throws {
    let problems = importer.configurationProblems
    if !problems.isEmpty { throw ValidationError(problems.joined(separator: "; ")) }
  }

  func run() throws {
    var importer = self.importer
    try ImportRun(format: "app-events", options: options, extensions: [".csv"], unit: AppEventsImporter.progressUnit) {
      importer.progress = $1
      return try importer.read($0)
    }.run()
  }
}

/// What a format's reader made of its input, before the shared flow writes it.
struct LoadedImport {
  /// The input as diagnostics name it (`path` or `path(member)`).
  var file: String
  /// How it was packed (`plain`, `gzip`, `tar`, `tar.gz`, `sqlite`).
  var container: String
  var result: ImportResult
  /// Warnings to print as soon as the input is read, one per line (Biome's skipped
  /// records), or empty.
  var warnings = ""
  /// Further files the format writes with the logs (PowerLog's widget statistics).
  var extraOutputs: [(path: String, bytes: [UInt8], written: String)] = []
}

/// One import: read (unpack a text file, or copy a database), apply `--kinds`, write every
/// output atomically, report. Every format goes through here, so `--kinds` applies to all.
///
/// While the input is read, the importer's `ImportProgress` (passed to `load`; nil when
/// no bar is shown) draws the `import` bar (`ImportProgressBar`), ended once the outputs
/// are written.
struct ImportRun {
  let format: String
  let options: ImportOptions
  /// What the importer's progress counts.
  let unit: ImportProgress.Unit
  let load: (ImportProgress?) throws -> LoadedImport

  /// A text format: the input is unpacked (`ImportSource`) and `read` parses it.
  init(
    format: String, options: ImportOptions, extensions: [String], unit: ImportProgress.Unit,
    read: @escaping (ImportSource, ImportProgress?) throws -> ImportResult
  ) {
    self.format = format
    self.options = options
    self.unit = unit
    load = { progress in
      let source = try ImportSource.open(
        path: options.input, member: options.member, extensions: extensions,
        limit: options.expansionLimit)
      return LoadedImport(
        file: source.file, container: source.container.rawValue, result: try read(source, progress))
    }
  }

  /// Any other input: `load` reads it.
  init(
    format: String, options: ImportOptions, unit: ImportProgress.Unit,
    load: @escaping (ImportProgress?) throws -> LoadedImport
  ) {
    self.format = format
    self.options = options
    self.unit = unit
    self.load = load
  }

  func run() throws {
    do {
      try reportingErrors {
        for output in [options.out] + (options.visitsOut.map { [$0] } ?? []) {
          try OutputPath.checkFile(output)
          try ReportSetPath.check(output)  // never a file of a report set
        }
        // Before anything else (even an import that fails on its input): finish or
        // discard the set an interrupted import left at these outputs.
        let targets = [options.out] + (options.visitsOut.map { [$0] } ?? [])
        // Held to the end of the run: another import of these files is refused (exit 75),
        // so two sets never interleave (`OutputFilesLock`).
        let lock = try OutputFilesLock(targets)
        defer { lock.release() }
        for note in try FileSet.recover(targets) where !options.quiet { StandardError.write("note: \(note)") }
        let kindMap = try options.kinds.map { try KindMap.read(path: $0) }
        let bar = ImportProgressBar(unit: unit, quiet: options.quiet)
        defer { bar.endLine() }
        var loaded = try load(bar.progress)
        if !loaded.warnings.isEmpty {
          bar.endLine()  // the bar goes on below them
          StandardError.write(loaded.warnings)
        }
        if let kindMap { loaded.result = kindMap.apply(to: loaded.result) }
        let result = loaded.result
        let jsonLines = DonationLogFormat(path: options.out) == .jsonl
        var outputs = [(options.out, Array(result.donationLogText(jsonLines: jsonLines).utf8))]
        if let visitsOut = options.visitsOut {
          outputs.append((visitsOut, Array(result.visitLogText().utf8)))
        }
        outputs += loaded.extraOutputs.map { ($0.path, $0.bytes) }
        let extraLock = try OutputFilesLock(loaded.extraOutputs.map(\.path).filter { !targets.contains($0) })
        defer { extraLock.release() }
        try OutputFiles.writeAll(outputs)
        bar.written()
        var report = skippedRowsText(result.skippedRows)
        if !options.quiet { report += summary(loaded) }
        if !report.isEmpty { StandardError.write(report) }
        if options.json { StandardOutput.write(jsonSummary(loaded) + "\n") }
      }
    } catch let error as ArchiveError {
      StandardError.write(error.description)
      throw Exit.dataError
    } catch let error as DatabaseError {
      StandardError.write(error.description)
      throw Exit.dataError
    }
  }

  /// One warning per skipped-row problem, `FILE:LINE:COLUMN: warning: message (row skipped)`
  /// (printed with `--quiet` too).
  func skippedRowsText(_ list: DiagnosticList) -> String {
    var text = ""
    for d in list.diagnostics {
      text += "\(d.file):\(d.line):\(d.column): warning: \(d.message) (row skipped)\n"
    }
    if list.truncated {
      text +=
        "(listed the first \(list.diagnostics.count) problems of skipped rows\(Self.countedBelow(options.quiet)))\n"
    }
    return text
  }

  /// `; all are counted below` before the counts; nothing with `--quiet`, which prints none.
  static func countedBelow(_ quiet: Bool) -> String { quiet ? "" : "; all are counted below" }

  /// The counts, one `name: value` per line.
  func summary(_ loaded: LoadedImport) -> String {
    let c = loaded.result.counts
    var visits = "\(c.visits)"
    if format == "app-events" { visits += " (\(c.launcherVisits) from launcher apps)" }
    if format == "lsapp" { visits += " (sessions)" }
    var written = "\(options.out) (\(c.donations) donations)"
    if let visitsOut = options.visitsOut { written += ", \(visitsOut) (\(c.visits) visits)" }
    for extra in loaded.extraOutputs { written += ", \(extra.path) (\(extra.written))" }
    var lines: [(String, String)] = [
      ("input", "\(loaded.file) (\(format), \(loaded.container))"),
      ("time zone", options.timezone),
      ("rows read", "\(c.rows)"),
      ("events", c.events.map(\.description).joined(separator: ", ")),
      ("donations", "\(c.donations)"),
      ("visits", visits),
      ("counted", "\(c.counted)"),
      ("dropped", c.dropped.map(\.description).joined(separator: ", ")),
      ("users", "\(c.users)"),
      ("apps", "\(c.apps)"),
    ]
    lines += c.notes.map { ($0.name, "\($0.count)") }
    lines.append(("wrote", written))
    let width = lines.map(\.0.count).max() ?? 0
    return lines.map { name, value in
      "\(name):" + String(repeating: " ", count: width - name.count + 1) + value + "\n"
    }.joined()
  }

  /// One JSON object; keys in a fixed order.
  func jsonSummary(_ loaded: LoadedImport) -> String {
    let c = loaded.result.counts
    func counts(_ list: [NamedCount]) -> JSONValue {
      .object(list.map { JSONMember($0.name, .number(Double($0.count))) })
    }
    var members: [JSONMember] = [
      JSONMember("format", .string(format)),
      JSONMember("input", .string(loaded.file)),
      JSONMember("container", .string(loaded.container)),
      JSONMember("timezone", .string(options.timezone)),
      JSONMember("rows", .number(Double(c.rows))),
      JSONMember("events", counts(c.events)),
      JSONMember("donations", .number(Double(c.donations))),
      JSONMember("visits", .number(Double(c.visits))),
    ]
    if format == "app-events" {
      members.append(JSONMember("launcher_visits", .number(Double(c.launcherVisits))))
    }
    members += [
      JSONMember("counted", .number(Double(c.counted))),
      JSONMember("dropped", counts(c.dropped)),
      JSONMember("users", .number(Double(c.users))),
      JSONMember("apps", .number(Double(c.apps))),
    ]
    if !c.notes.isEmpty {
      members.append(
        JSONMember(
          "notes",
          .object(
            c.notes.map {
              JSONMember($0.name.replacingOccurrences(of: " ", with: "_"), .number(Double($0.count)))
            })))
    }
    members += [
      JSONMember("out", .string(options.out)),
      JSONMember("visits_out", options.visitsOut.map { .string($0) } ?? .null),
    ]
    return JSONValue.object(members).serialized()
  }
}

/// Writes an import's outputs as one set (`FileSet`: staged beside each target,
/// committed by one record, moved in; an interrupted set is finished or discarded by the
/// next import with the same outputs, and refused by every reader meanwhile).
enum OutputFiles {
  static func writeAll(_ files: [(path: String, bytes: [UInt8])]) throws {
    try FileSet.publish(files)
  }
}
