import ArgumentParser
import SmartStackKit

/// `smartstack import biome DIR --out LOG [--visits-out VISITS] [--context-out FILE
/// [--context-from PATH]]`: Apple Biome `App.InFocus` and `App.Intent` SEGB files as a
/// donation log and a visit log, and `Device.Power.PluggedIn` as a context file.
///
/// Runs through the shared `ImportRun` (outputs, summary, exit codes) like every format.
/// Exit codes: 65 for a truncated or corrupt SEGB file (`FILE: offset N: message`) and
/// for bad records without `--skip-bad-rows`; 66 when the input cannot be read.
struct ImportBiomeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "biome",
    abstract: "Import Apple Biome App.InFocus and App.Intent streams (iOS 16+, macOS 13+).",
    discussion: """
      INPUT is a Biome streams folder (.../Biome/streams/restricted, or a folder with \
      App.InFocus or App.Intent in it, or one stream's folder or local folder) or one SEGB \
      file. App.Intent records become donations (kind = bundle id, intent = intent class, \
      parameters verb, direction, group); App.InFocus records of an app coming to the \
      foreground become donations of kind = bundle id, and those of a --launcher app \
      (default com.apple.springboard) become visits. Deleted records are counted and \
      skipped; a record whose CRC-32 does not match fails the import unless \
      --skip-bad-rows. Times are written in UTC: Biome stores no UTC offset, so give the \
      device's zone to replay's --timezone. --context-out writes the charging state \
      (Device.Power.PluggedIn, looked for in INPUT or in --context-from, e.g. \
      private/var/db/biome) as a context file. See docs/importers.md.

      Example:
        smartstack import biome private/var/mobile/Library/Biome/streams/restricted \\
          --out biome.csv --visits-out biome-visits.csv
      """)

  @OptionGroup var options: ImportOptions

  @Option(
    help: ArgumentHelp(
      "Read only this stream, or the stream of a single file whose path names none.",
      valueName: "App.InFocus|App.Intent"))
  var stream: String?

  @Option(
    name: .customLong("launcher"),
    help: ArgumentHelp(
      "An app whose App.InFocus foreground records are Home Screen visits (repeatable; default com.apple.springboard).",
      valueName: "BUNDLE_ID"))
  var launchers: [String] = []

  @OptionGroup var context: ContextOutOption

  @Option(
    name: .customLong("context-from"),
    help: ArgumentHelp(
      "The Biome folder holding Device.Power.PluggedIn for --context-out (default: INPUT); on iOS 17+ it is private/var/db/biome.",
      valueName: "PATH"))
  var contextFrom: String?

  func validate() throws {
    try context.check(options)
    if let contextFrom {
      guard let contextOut = context.contextOut else {
        throw ValidationError("--context-from names where --context-out's streams are; give --context-out FILE too")
      }
      let outputs = [("--out", options.out), ("--context-out", contextOut)] + (options.visitsOut.map { [("--visits-out", $0)] } ?? [])
      if let problem = InputOutputOverlap.problem(inputs: [contextFrom], outputs: outputs) {
        throw ValidationError(TerminalText.escapingControls(problem))
      }
    }
    if options.member != nil {
      throw ValidationError("--member chooses a file in a tar archive; biome reads SEGB files and folders")
    }
    if let stream, BiomeStream(rawValue: stream) == nil {
      throw ValidationError("--stream must be App.InFocus or App.Intent, not '\(stream)'")
    }
  }

  func run() throws {
    var importer = BiomeImporter(
      launcherApps: launchers.isEmpty ? [BiomeImporter.springBoard] : launchers,
      skipBadRows: options.skipBadRows)
    let stream = self.stream.flatMap { BiomeStream(rawValue: $0) }
    let (input, context, contextFrom) = (options.input, self.context, self.contextFrom)
    try ImportRun(format: "biome", options: options, unit: BiomeImporter.progressUnit) { progress in
      try context.checkPath()
      importer.progress = progress
      let source = ImportSource.segb(path: options.input)
      let files = try BiomeStreamFiles(path: input, stream: stream)
      let contextFiles = try context.contextOut.map { _ in try BiomeContextFiles(path: contextFrom ?? input) }
      let output = try importer.read(files, name: input, context: contextFiles)
      var text = output.warnings.map { "\($0) (warning: record skipped)\n" }.joined()
      if output.warningsTruncated {
        text += "(listed the first \(output.warnings.count) skipped records\(ImportRun.countedBelow(options.quiet)))\n"
      }
      var loaded = LoadedImport(
        file: source.file, container: source.container.rawValue, result: output.result, warnings: text)
      context.add(output.result.context, to: &loaded)
      return loaded
    }.run()
  }
}
