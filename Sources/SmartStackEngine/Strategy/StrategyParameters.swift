import SmartStackBase
import SmartStackData

/// A parameter a strategy accepts: its name, default and meaning.
public struct StrategyParameterSpec: Sendable, Hashable {
  /// Lowercase with dashes, e.g. `half-life-days`.
  public var name: String
  /// The value used when none is given.
  public var defaultValue: Double
  /// Allowed values (inclusive).
  public var range: ClosedRange<Double>
  /// True when only whole numbers are allowed.
  public var integer: Bool
  /// One line of help: meaning and unit.
  public var help: String

  public init(
    _ name: String, default defaultValue: Double, range: ClosedRange<Double>,
    integer: Bool = false, help: String
  ) {
    self.name = name
    self.defaultValue = defaultValue
    self.range = range
    self.integer = integer
    self.help = help
  }
}

/// Validated parameter values for one strategy: every spec has a value.
public struct StrategyParameters: Sendable, Hashable {
  /// Name-value pairs sorted by name.
  public private(set) var values: [StrategyParameterValue]

  /// No parameters.
  public static let none = StrategyParameters(values: [])

  private init(values: [StrategyParameterValue]) { self.values = values }

  /// Resolves `given` against `specs`: unknown names, repeated names, and out-of-range
  /// or non-integral values are errors; missing names take their defaults.
  public init(specs: [StrategyParameterSpec], given: [(String, Double)], strategy: String) throws {
    for (name, _) in given where !specs.contains(where: { $0.name == name }) {
      let known = specs.map(\.name).joined(separator: ", ")
      throw StrategyError(
        "strategy '\(strategy)' has no parameter '\(name)'"
          + (known.isEmpty ? " (it takes none)" : " (known: \(known))"))
    }
    var result: [StrategyParameterValue] = []
    for spec in specs {
      let matching = given.filter { $0.0 == spec.name }
      if matching.count > 1 {
        throw StrategyError("strategy '\(strategy)': parameter '\(spec.name)' is given twice")
      }
      let value = matching.first?.1 ?? spec.defaultValue
      guard value.isFinite, spec.range.contains(value) else {
        throw StrategyError(
          "strategy '\(strategy)': \(spec.name)=\(NumberText.plain(value)) is outside "
            + "\(NumberText.plain(spec.range.lowerBound))...\(NumberText.plain(spec.range.upperBound))"
        )
      }
      if spec.integer && value.rounded() != value {
        throw StrategyError("strategy '\(strategy)': \(spec.name) must be a whole number")
      }
      result.append(StrategyParameterValue(name: spec.name, value: value))
    }
    values = result.sorted { $0.name < $1.name }
  }

  /// The value of `name`. Asking for a name the strategy did not declare is a
  /// programming error.
  public subscript(_ name: String) -> Double {
    for v in values where v.name == name { return v.value }
    preconditionFailure("strategy parameter '\(name)' was not declared in parameterSpecs")
  }

  /// `name=value;name=value`, sorted by name: the `parameters` column of the CSVs.
  public var canonical: String {
    values.map { "\($0.name)=\(NumberText.plain($0.value))" }.joined(separator: ";")
  }
}

/// One resolved parameter value.
public struct StrategyParameterValue: Sendable, Hashable {
  public var name: String
  public var value: Double
}

/// A strategy's identity in outputs: its name and canonical parameters.
public struct StrategyDescriptor: Sendable, Hashable, CustomStringConvertible {
  public var name: String
  public var parameters: StrategyParameters
  /// A short label for tables: the name plus only the parameters that differ from their
  /// defaults (`hour-of-week:half-life-days=7`, or just `mfu`).
  public var label: String

  public init(name: String, parameters: StrategyParameters, specs: [StrategyParameterSpec] = []) {
    self.name = name
    self.parameters = parameters
    let changed = parameters.values.filter { v in
      !specs.contains { $0.name == v.name && $0.defaultValue == v.value }
    }
    label =
      changed.isEmpty
      ? name : name + ":" + changed.map { "\($0.name)=\(NumberText.plain($0.value))" }.joined(separator: ":")
  }
  /// `name` alone, or `name:a=1:b=2` when it has parameters (the command-line form).
  public var description: String {
    parameters.values.isEmpty
      ? name
      : name + ":"
        + parameters.values.map { "\($0.name)=\(NumberText.plain($0.value))" }
        .joined(separator: ":")
  }
}

/// A strategy name, parameter or registration that is not valid.
public struct StrategyError: Error, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// Plain, locale-free number text for identifiers and messages.
enum NumberText {
  /// Whole numbers without a fraction (`14`), others in Swift's shortest round-trip form.
  static func plain(_ x: Double) -> String {
    if x.isFinite && x.rounded() == x && abs(x) < 9.0e15 { return String(Int64(x)) }
    return "\(x)"
  }
}
