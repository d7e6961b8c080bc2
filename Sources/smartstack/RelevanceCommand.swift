import ArgumentParser
import SmartStackKit

/// `smartstack relevance TIMELINE.json`: placeholder until the relevance model lands.
struct RelevanceCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "relevance", abstract: "Evaluate relevance timelines on a time grid.")
  @Argument(help: "The timeline JSON file.") var timeline: String
  func run() throws { throw ValidationError("not implemented yet") }
}
