import ArgumentParser
import SmartStackKit

/// `smartstack import knowledgec DB --out LOG`: CoreDuet's knowledgeC.db.
struct ImportKnowledgeCCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "knowledgec",
    abstract: "Import CoreDuet's knowledgeC.db (intent donations, app focus, unlocks).",
    discussion: """
      The database is copied with its -wal and -shm files to a temporary folder and the \
      copy is opened read-only; the original is never opened. Rows of /app/intents (or \
      the --streams given) become donations of kind = bundle id, intent = intent class; \
      /device/isLocked rows with value 0 (unlocked) become visits (--visits-from backlit: \
      /display/isBacklit rows with value 1). Each timestamp keeps its row's own UTC \
      offset (ZSECONDSFROMGMT), also written as a utc_offset column. --context-out writes \
      the context the database holds as a context file: /device/isPluggedIn as charging, \
      /audio/outputRoute as headphones. See docs/importers.md.

      Example:
        smartstack import knowledgec knowledgeC.db --out kc.csv --visits-out kc-visits.csv
      """)

  @OptionGroup var options: ImportOptions

  @Option(
    help: ArgumentHelp(
      "Comma-separated donation streams: intents, inFocus, activity, or full names such as /app/usage.",
      valueName: "LIST"))
  var streams = "intents"

  @Option(
    name: .customLong("visits-from"),
    help: ArgumentHelp(
      "Visits from 'locked' (/device/isLocked value 0) or 'backlit' (/display/isBacklit value 1).",
      valueName: "SOURCE"))
  var visitsFrom = "locked"

  @OptionGroup var context: ContextOutOption

  var streamList: [String] {
    streams.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
  }

  func validate() throws {
    guard KnowledgeCImporter.VisitSource(rawValue: visitsFrom) != nil else {
      throw ValidationError("--visits-from must be 'locked' or 'backlit', not '\(visitsFrom)'")
    }
    let importer = KnowledgeCImporter(streams: streamList)
    if importer.streams.isEmpty { throw ValidationError("--streams names no stream") }
    for visit in KnowledgeCImporter.VisitSource.allCases where importer.streams.contains(visit.stream) {
      throw ValidationError("\(visit.stream) gives visits, not donations: use --visits-from")
    }
    try context.check(options)
  }

  func run() throws {
    var importer = KnowledgeCImporter(
      streams: streamList, visitSource: KnowledgeCImporter.VisitSource(rawValue: visitsFrom) ?? .locked,
      skipBadRows: options.skipBadRows)
    importer.readsContext = context.contextOut != nil
    let context = self.context
    try ImportRun(format: "knowledgec", options: options, unit: KnowledgeCImporter.progressUnit) {
      importer.progress = $0
      try context.checkPath()
      var loaded = LoadedImport(
        file: options.input, container: "sqlite", result: try importer.read(path: options.input))
      context.add(loaded.result.context, to: &loaded)
      return loaded
    }.run()
  }
}
