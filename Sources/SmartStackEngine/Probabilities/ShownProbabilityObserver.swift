import SmartStackBase
import SmartStackData

/// An observer that reads the probability with which the engine showed each instance
/// (`ShownProbabilities`, `VisitOutcome.shownProbability`), e.g. to log propensities.
///
/// Conforming is the whole declaration: a session whose observer conforms computes the
/// probabilities at every visit and tells them; a session whose observer does not
/// computes none (a copy-and-rank of a wrapped strategy at every visit) and its outcomes'
/// `shownProbability` is NaN. The session finds out which once, when it starts
/// (`ShownProbabilityReader`).
public protocol ShownProbabilityObserver: OutcomeObserver {
  /// The probabilities of the visit the next `observe` call reports, told right before
  /// it.
  mutating func shownProbabilities(_ probabilities: ShownProbabilities)
}

/// An observer that holds others (`ObserverPair`, the experiments layer's
/// `DynamicObserver`): it conforms to `ShownProbabilityObserver` whatever it holds, and
/// forwards the probabilities only to what it holds that reads them, as decided when it
/// was made. `forwardsShownProbabilities` is false when nothing it holds reads them: a
/// session fed through it then computes none.
@usableFromInline package protocol ShownProbabilityForwarder: ShownProbabilityObserver {
  /// True when something this observer holds reads shown probabilities; fixed at its
  /// initialisation.
  var forwardsShownProbabilities: Bool { get }
}

/// How the engine tells an observer shown probabilities: made once for an observer that
/// reads them (nil for one that does not), it holds the observer's type as a
/// `ShownProbabilityObserver`, so that each visit calls the observer's
/// `shownProbabilities(_:)` with no cast.
@usableFromInline package struct ShownProbabilityReader: Sendable {
  /// The observer's type, opened at each `tell`.
  @usableFromInline let observerType: any ShownProbabilityObserver.Type

  /// The reader of `observer`: nil when its type is not a `ShownProbabilityObserver`,
  /// or is a `ShownProbabilityForwarder` that forwards to nothing.
  ///
  /// - Complexity: two conformance casts; call it once per observer, not per visit.
  @inlinable package init?<O: OutcomeObserver>(_ observer: O) {
    guard let type = O.self as? any ShownProbabilityObserver.Type else { return nil }
    if let forwarder = observer as? any ShownProbabilityForwarder, !forwarder.forwardsShownProbabilities {
      return nil
    }
    observerType = type
  }

  /// Tells `observer`, of the type this reader was made for, `probabilities` (in place).
  @inlinable package func tell<O: OutcomeObserver>(_ observer: inout O, _ probabilities: ShownProbabilities) {
    func open<R: ShownProbabilityObserver>(_: R.Type) {
      precondition(R.self == O.self, "ShownProbabilityReader of \(R.self) told a \(O.self)")
      // `R` is `O` (checked above), opened from the metatype kept at init: the observer
      // is called in place, with no copy that a mutation would have to write back.
      withUnsafeMutablePointer(to: &observer) { pointer in
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: R.self).pointee.shownProbabilities(probabilities)
      }
    }
    open(observerType)
  }
}
