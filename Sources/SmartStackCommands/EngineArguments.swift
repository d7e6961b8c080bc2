import ArgumentParser
import SmartStackKit

/// The engine options `replay` and `simulate` share (results depend on them).
struct EngineArguments: ParsableArguments {
  @Option(name: .customLong("relevance-threshold"), parsing: .unconditional, help: "Percentile at or above which an active window counts as relevant for the relevance metrics.")
  var relevanceThreshold: Double = 0.8

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
    var options = EngineOptions()
    options.relevanceThreshold = relevanceThreshold
    options.normaliserScope = normaliserScope == "kind" ? .kind : .instance
    if let days = normaliserWindowDays { options.normaliserWindow = .days(days) }
    return options
  }
}
