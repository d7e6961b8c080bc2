import ArgumentParser
import SmartStackKit

/// `smartstack strategies`: names, parameters and one-line definitions.
struct StrategiesCommand: RegistryCommand {
  static let configuration = CommandConfiguration(
    commandName: "strategies",
    abstract: "List the ranking strategies with their parameters and definitions.")

  func run(registry: StrategyRegistry) {
    StandardOutput.write(Self.listing(registry))
  }

  /// What the command prints: every strategy of `registry` in registration order with
  /// its summary and parameters, then the wrappers (`epsilon`, `softmax`), then how to
  /// spell a choice.
  static func listing(_ registry: StrategyRegistry) -> String {
    var out = ""
    func list(_ info: StrategyInfo) {
      out += "\(info.name)\n    \(info.summary)\n"
      for spec in info.parameters {
        let range = "\(plain(spec.range.lowerBound))...\(plain(spec.range.upperBound))"
        out += "    \(spec.name)=\(plain(spec.defaultValue))  (\(range)\(spec.integer ? ", whole" : "")) \(spec.help)\n"
      }
    }
    for type in registry.types { list(type.info) }
    out += "\nAround a base strategy (NAME:base=BASE: any strategy but oracle, bandit, epsilon and softmax;\n"
    out += "base.PARAM=VALUE sets the base's parameters; see docs/counterfactual.md):\n"
    for info in StrategyRegistry.wrapperInfos { list(info) }
    out += "\nUse as NAME or NAME:PARAM=VALUE:PARAM=VALUE, several separated by commas.\n"
    out += "Exact definitions: the doc comment of each type in Sources/SmartStackStrategies/.\n"
    return out
  }

  static func plain(_ x: Double) -> String { NumberFormat.format(x) }
}
