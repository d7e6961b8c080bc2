import ArgumentParser
import SmartStackKit

/// The engine options `replay` and `simulate` share (results depend on them).
struct EngineArguments: ParsableArguments {
  @Option(
    name: .customLong("relevance-threshold"), parsing: .unconditional,
    help: "A relevant moment (relevance_visits, relevance_honoured, windows): a visit where a widget has an active window (score > 0) whose normalised percentile is at least this. The default 0.5 counts a widget that always gives the same positive score (percentile 0.5: a game, a meeting) while its window is active; batch configs use the same default.")
  var relevanceThreshold: Double = EngineOptions.toolkitDefaults.relevanceThreshold

  @Option(name: .customLong("normaliser-scope"), help: "Relevance normalisation scope: instance or kind.")
  var normaliserScope: String = "instance"

  @Option(name: .customLong("normaliser-window-days"), parsing: .unconditional, help: "Normalise over the last N days of scores (default: all history).")
  var normaliserWindowDays: Int?

  func validate() throws {
    guard (0...1).contains(relevanceThreshold) else { throw ValidationError("--relevance-threshold must be within 0...1") }
    if let n = normaliserWindowDays, n < 1 { throw ValidationError("--normaliser-window-days must be at least 1") }
    guard normaliserScope == "instance" || normaliserScope == "kind" else {
      throw ValidationError("--normaliser-scope must be 'instance' or 'kind', not '\(normaliserScope)'")
    }
  }

  /// The options as the engine takes them.
  var options: EngineOptions {
    var options = EngineOptions.toolkitDefaults
    options.relevanceThreshold = relevanceThreshold
    options.normaliserScope = normaliserScope == "kind" ? .kind : .instance
    if let days = normaliserWindowDays { options.normaliserWindow = .days(days) }
    return options
  }
}
