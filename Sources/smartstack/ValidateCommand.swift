import ArgumentParser
import SmartStackKit

/// `smartstack validate LOG`: placeholder until the donation-log readers land.
struct ValidateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate", abstract: "Check a donation log (CSV or JSON Lines) and summarise it.")
  @Argument(help: "The donation log.") var log: String
  func run() throws { throw ValidationError("not implemented yet") }
}
