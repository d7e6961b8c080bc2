import Foundation
import Testing

/// A number option given a negative value is read as that value and refused with its
/// range, not mistaken for an option name ("Missing value for '--days <days>'").
@Suite("Negative numbers get the option's real range message")
struct NegativeNumberTests {
  static let cases: [(arguments: [String], message: String)] = [
    (["simulate", "--scenario", "tiny.json", "--days", "-1"], "--days must be within 1...366"),
    (["simulate", "--scenario", "tiny.json", "--replicates", "-1"], "--replicates must be within 1...1000"),
    (["simulate", "--scenario", "tiny.json", "--jobs", "-1"], "--jobs must be at least 1"),
    (["replay", "--log", "tiny.csv", "--horizon", "-5"], "--horizon must be a number of seconds within 0...31622400"),
    (["replay", "--log", "tiny.csv", "--warmup-days", "-1"], "--warmup-days must be within 0...36500"),
    (["replay", "--log", "tiny.csv", "--relevance-threshold", "-1"], "--relevance-threshold must be within 0...1"),
    (["batch", "--replicates", "-1"], "--replicates must be within 1...100000"),
    (["batch", "--jobs", "-1"], "--jobs must be at least 1"),
    (["bench", "--days", "-3"], "days must be within 1...3650"),
  ]

  @Test(arguments: cases.indices)
  func aNegativeValueIsRefusedWithItsRange(index: Int) throws {
    let (arguments, message) = Self.cases[index]
    let result = try CLI.run(arguments)
    #expect(result.status == 64, "\(arguments): \(result.stderr)")
    #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    #expect(!result.stderr.contains("Missing value"), "\(arguments): \(result.stderr)")
  }
}
