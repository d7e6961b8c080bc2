import SmartStackData

/// What the person's device knows at this moment (`StackContext.device`): the current
/// value of each context signal (`ContextSignal`), set by the context changes dated
/// `<= now` (`--context FILE`, or a scenario's context routine).
///
/// A value is a dense id of the person's `vocabulary` (`ContextVocabulary`), or -1 while
/// the signal is unknown (before its first change, and in runs without context). A
/// strategy that never reads it pays nothing: the engine only stores the change.
public struct DeviceContext: Sendable, Hashable {
  /// `values[signal.rawValue]`: the current id, or -1 (inline, so that copying a
  /// context costs no reference count for it).
  @usableFromInline package var values: SIMD8<Int32>
  /// The names behind the ids.
  @inlinable public var vocabulary: ContextVocabulary { _vocabulary }
  @usableFromInline package var _vocabulary: ContextVocabulary

  /// Nothing known.
  @inlinable package init() {
    values = SIMD8(repeating: -1)
    _vocabulary = ContextVocabulary([])
  }

  @inlinable package mutating func begin(_ vocabulary: ContextVocabulary) {
    _vocabulary = vocabulary
    values = SIMD8(repeating: -1)
  }

  /// The current value id of `signal`, or -1 when unknown. O(1).
  @inlinable public subscript(_ signal: ContextSignal) -> Int32 { values[signal.rawValue] }

  /// The current value of `signal` by name, or nil when unknown.
  public func name(_ signal: ContextSignal) -> String? { vocabulary.name(self[signal], signal) }

  /// True when any signal is known.
  @inlinable public var isKnown: Bool { any(values .>= 0) }

  /// The current ids without the names, to keep (`VisitFeedback.device`). O(1).
  @inlinable public var snapshot: ContextSnapshot { ContextSnapshot(values) }
}

/// The value id of each context signal at one moment (-1: unknown), as
/// `DeviceContext` holds them, without the vocabulary: 32 bytes, no reference.
public struct ContextSnapshot: Sendable, Hashable {
  @usableFromInline package var values: SIMD8<Int32>

  @inlinable package init(_ values: SIMD8<Int32>) { self.values = values }

  /// Every signal unknown.
  @inlinable public static var unknown: ContextSnapshot { ContextSnapshot(SIMD8(repeating: -1)) }

  /// The id of `signal` then, or -1 when it was unknown. O(1).
  @inlinable public subscript(_ signal: ContextSignal) -> Int32 { values[signal.rawValue] }
}
