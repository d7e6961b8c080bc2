import SmartStackBase
import SmartStackEngine
import SmartStackExperiments

/// Each person's response probabilities, fitted from a version-2 exposure log for rule
/// replay (docs/counterfactual.md, "Rule replay"):
/// - `tap`: P(tap | the shown widget is wanted), from the visits with a want whose shown
///   widget was wanted;
/// - `swipe`: P(swipe | a wanted widget is a candidate but not shown), from those visits;
/// - `open`: P(open the app by hand | a want neither tapped nor swiped), from those.
///
/// Each is the person's own rate shrunk toward the pooled one:
/// `p = (s + k·P) / (n + k)` with s successes in n of the person's visits, k =
/// `priorVisits` (default 10) and the pooled rate `P = (S + 1) / (N + 2)` over every
/// person (Laplace), so a person with few visits borrows from everyone.
public struct ResponseModel: Sendable {
  public struct Rates: Sendable, Hashable {
    public var tap: Double
    public var swipe: Double
    public var open: Double
  }
  /// Per person (order of first appearance in the log).
  public var rates: [String: Rates]
  public var pooled: Rates
  /// The prior's weight in visits.
  public static let priorVisits = 10.0

  /// Counts (successes, trials) of the three responses over `exposures`.
  static func counts(_ exposures: some Sequence<Exposure>) -> [(Double, Double)] {
    var c = [(0.0, 0.0), (0.0, 0.0), (0.0, 0.0)]
    for e in exposures where !e.wantApp.isEmpty {
      guard let action = e.action else { continue }
      if e.hit {
        c[0].1 += 1
        if action == .tap { c[0].0 += 1; continue }
      } else if e.targets.contains(where: e.candidates.contains) {
        c[1].1 += 1
        if action == .swipe { c[1].0 += 1; continue }
      }
      c[2].1 += 1
      if action == .open { c[2].0 += 1 }
    }
    return c
  }

  /// Fits the model to `log` (version 2).
  ///
  /// - Complexity: O(rows).
  public init(_ log: ExposureLog) {
    let all = Self.counts(log.exposures)
    let pooledRates = all.map { ($0.0 + 1) / ($0.1 + 2) }
    pooled = Rates(tap: pooledRates[0], swipe: pooledRates[1], open: pooledRates[2])
    var byPerson: [String: [Exposure]] = [:]
    for e in log.exposures { byPerson[e.person, default: []].append(e) }
    var rates: [String: Rates] = [:]
    let k = Self.priorVisits
    for (person, rows) in byPerson {
      let c = Self.counts(rows)
      let r = (0..<3).map { (c[$0].0 + k * pooledRates[$0]) / (c[$0].1 + k) }
      rates[person] = Rates(tap: r[0], swipe: r[1], open: r[2])
    }
    self.rates = rates
  }
}

/// What the log reveals of one visit's reactions, and the target's reaction from it
/// (`RuleReplayResponder`).
///
/// The person's reaction at a visit is a function of three independent yes/no decisions
/// (tap if a wanted widget is shown; swipe if nothing wanted is shown and a wanted
/// widget is a candidate; otherwise open by hand), the model of `Simulation`'s people
/// and of rule replay's assumption that people respond with fixed per-person
/// probabilities. The logged action reveals some of them: a logged tap says "would
/// tap"; a logged open after a wanted widget was shown says "would not tap, would open";
/// and so on. The target's reaction uses each revealed decision and draws the others
/// from the fitted rates, so where the target shows what the logger showed (the same
/// situation) it is the logged action exactly.
struct RevealedReaction: Sendable {
  var tap: Bool?
  var swipe: Bool?
  var open: Bool?

  /// What `action` reveals at a visit whose shown widget was wanted (`hit`) or not, and
  /// where a wanted widget was a candidate (`canSwipe`).
  init(action: VisitAction, hit: Bool, canSwipe: Bool) {
    if hit {
      tap = action == .tap
      if action != .tap { open = action == .open }
    } else {
      if canSwipe { swipe = action == .swipe }
      if action != .swipe { open = action == .open }
    }
  }

  /// The target's reaction when what it shows is wanted (`isHit`) or not and a wanted
  /// candidate exists (`canSwipe`), drawing what is not revealed with `draw(rate)`.
  func reaction(
    isHit: Bool, canSwipe: Bool, rates: ResponseModel.Rates, draw: (Double) -> Bool
  ) -> VisitAction {
    if isHit {
      if tap ?? draw(rates.tap) { return .tap }
    } else if canSwipe {
      if swipe ?? draw(rates.swipe) { return .swipe }
    }
    return open ?? draw(rates.open) ? .open : .none
  }
}
