import ArgumentParser
import SmartStackKit

/// `smartstack import powerlog PLSQL --out LOG`: PowerLog's CurrentPowerlog.PLSQL.
struct ImportPowerLogCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "powerlog",
    abstract: "Import a PowerLog database (app launches, unlocks, widget statistics).",
    discussion: """
      The database is copied with its -wal and -shm files and the copy is opened \
      read-only. Launches (PLApplicationAgent_EventForward_Application rows entering \
      State 8, foreground running) become donations of kind = Identifier; unlocks \
      (PLSpringBoardAgent_EventForward_SBLock Locked = 0) become visits. Every time is \
      corrected by PLStorageOperator_EventForward_TimeOffset. --widgets-out writes the \
      rows of the tables with an isInStack column; --context-out the charging state \
      (PLBatteryAgent_EventBackward_Battery IsCharging) as a context file. See \
      docs/importers.md.

      Example:
        smartstack import powerlog CurrentPowerlog.PLSQL --out pl.csv --visits-out pl-visits.csv
      """)

  @OptionGroup var options: ImportOptions

  @Option(
    name: .customLong("widgets-out"),
    help: ArgumentHelp("Also write the home-screen widget statistics as CSV.", valueName: "FILE"))
  var widgetsOut: String?

  @OptionGroup var context: ContextOutOption

  func validate() throws {
    if let widgetsOut { try options.refuseExtraOutput("--widgets-out", widgetsOut) }
    try context.check(options, otherOutputs: widgetsOut.map { [$0] } ?? [])
  }

  func run() throws {
    let (widgetsOut, context) = (self.widgetsOut, self.context)
    try ImportRun(format: "powerlog", options: options, unit: PowerLogImporter.progressUnit) { progress in
      if let widgetsOut { try ImportOptions.checkExtraOutput(widgetsOut) }
      try context.checkPath()
      var importer = PowerLogImporter(skipBadRows: options.skipBadRows)
      importer.progress = progress
      importer.readsContext = context.contextOut != nil
      let read = try importer.read(path: options.input)
      var loaded = LoadedImport(file: options.input, container: "sqlite", result: read.result)
      if let widgetsOut {
        loaded.extraOutputs.append(
          (widgetsOut, Array(read.widgets.csvText().utf8), "\(read.widgets.count) widget rows"))
      }
      context.add(read.result.context, to: &loaded)
      return loaded
    }.run()
  }
}
