import SmartStackBase

/// Serial dependence of a person's routine wants: people come back to what they just
/// used (docs/scenario-format.md, "Persona": `repeat`).
///
/// ## Definition
/// At a visit whose want is drawn from the routine (`WantGenerator`, step 2), when the
/// person's previous want (from the routine or an event) was for app `a` less than
/// `minutes` before the visit: with `u3 < probability` the visit wants `a` again;
/// otherwise the routine pick uses `(u3 − probability) / (1 − probability)` instead of
/// `u3`. No extra random number is drawn, so `probability` 0 (the default) gives exactly
/// the wants of a persona without `repeat`.
public struct WantRepeat: Sendable, Hashable {
  /// The chance of wanting the previous want's app again, 0...1.
  public var probability: Double
  /// How recent the previous want must be, in minutes (1...1440).
  public var minutes: Double

  /// No repeats.
  public static let none = WantRepeat(probability: 0, minutes: 30)

  public init(probability: Double, minutes: Double) {
    self.probability = probability
    self.minutes = minutes
  }
}

extension WantRepeat: JSONObjectDecodable {
  /// `{"probability": 0.2, "minutes": 30}`; `minutes` defaults to 30.
  public static func read(_ o: inout JSONObjectReader) -> WantRepeat? {
    let probability = o.optional("probability", in: 0...1, default: 0.0)
    let minutes = o.optional("minutes", in: 1...1_440, default: 30.0)
    return WantRepeat(probability: probability, minutes: minutes)
  }
}
