/// A value's fields in one shared immutable box: the copy-on-write rule behind ``Request`` and
/// ``Response``, written once. Why it exists, and the test that guards it:
/// Tests/AllocationBudgetTests/RequestPathRules.md.
///
/// A copy is a retain, so an async frame that holds a request or a response holds a reference,
/// not hundreds of bytes. A change takes the fields out and lets the old box go before it stores
/// a new one: when no other copy shares the box, the fields' own storage (a `Data`, the header
/// array) is then uniquely referenced and changes in place. Boxes are never written, which is what
/// makes them `Sendable` without a lock.
struct SharedFields<Fields: Sendable>: Sendable {
    private final class Box: Sendable {
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    /// `nil` only while a change holds the fields.
    private var box: Box?

    /// Boxes `fields`.
    init(_ fields: Fields) {
        box = Box(fields)
    }

    /// The fields; a change stores them in a new box.
    var fields: Fields {
        get { box!.fields }
        _modify {
            var fields = box!.fields
            box = nil
            defer { box = Box(fields) }
            yield &fields
        }
    }

    /// Whether both values keep their fields in the same box (one is an unchanged copy of the other).
    func isSame(as other: Self) -> Bool {
        box === other.box
    }
}
