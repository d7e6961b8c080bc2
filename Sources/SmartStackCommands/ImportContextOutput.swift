import ArgumentParser
import SmartStackKit

/// `--context-out FILE` of the device formats (`knowledgec`, `powerlog`, `biome`): the
/// context the database or Biome folder holds (`ImportResult.context`), written as a context file (`ContextLog`; CSV,
/// or JSON Lines when FILE ends in `.jsonl`, `.ndjson` or `.json`) in the same set as the
/// logs (`OutputFiles`: atomic, nothing written unless the whole import succeeds).
///
/// A database that holds no context change gives no file: an empty one would say "nothing
/// known" as if the streams had been read and found empty, and would hide a stale file
/// from an earlier import. A warning says so instead (printed with `--quiet` too), and a
/// file already at FILE is left as it was.
struct ContextOutOption: ParsableArguments {
  @Option(
    name: .customLong("context-out"),
    help: ArgumentHelp(
      "Also write the context the input holds (knowledgec: charging, headphones; powerlog and biome: charging) as a context file for validate/replay --context.",
      valueName: "FILE"))
  var contextOut: String?

  /// Refuses a `--context-out` that names another output or an input (exit 64).
  func check(_ options: ImportOptions, otherOutputs: [String] = []) throws {
    guard let contextOut else { return }
    try options.refuseExtraOutput("--context-out", contextOut, others: otherOutputs)
  }

  /// Checks FILE as the logs' paths are checked (`ImportOptions.checkExtraOutput`, exit
  /// 73), before the database is read.
  func checkPath() throws {
    if let contextOut { try ImportOptions.checkExtraOutput(contextOut) }
  }

  /// Adds the context file to `loaded`'s outputs, or, when `context` holds no change, a
  /// warning naming the streams or tables read.
  func add(_ context: ImportedContext?, to loaded: inout LoadedImport) {
    guard let contextOut, let context else { return }
    if context.count == 0 {
      loaded.warnings += TerminalText.escapingControls(
        "warning: \(loaded.file) holds no context (no charging or headphones state in "
          + context.sources.joined(separator: ", ") + "): --context-out \(contextOut) is not written"
          + (context.unread > 0 ? " (\(context.unread) of their rows say no state)" : "")) + "\n"
      return
    }
    let jsonLines = DonationLogFormat(path: contextOut) == .jsonl
    loaded.extraOutputs.append(
      (
        contextOut, Array(context.text(jsonLines: jsonLines).utf8),
        "\(context.count) context changes" + (context.unread > 0 ? ", \(context.unread) \(context.unread == 1 ? "row" : "rows") without a state" : "")
      ))
  }
}
