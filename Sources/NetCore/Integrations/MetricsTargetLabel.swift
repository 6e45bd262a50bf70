#if Metrics
    import NetToolbox
    import NetBase

    /// The `target` label of ``NetworkMetrics``, worked out by reflection once per target type (and
    /// per case of a small enum) instead of once per call.
    ///
    /// A target that is not an enum is labelled by its type alone, so its type is enough to find
    /// the label again. An enum is labelled `Type.case`: when its values are at most 4 bytes (an
    /// enum whose cases carry nothing, or only a few bytes, holds no reference and no padding
    /// that changes between copies of one value), the value's bytes name the case and key the
    /// table; a larger enum (a case carrying a `String` or an `Int`) is reflected once per call
    /// (``NetworkMetrics`` keeps the result in the call's storage). The table holds at most
    /// ``capacity`` entries; past that, labels are reflected as before and nothing is added.
    enum MetricsTargetLabel {
        /// The most entries the table keeps (an enum whose small payload varies could add one per value).
        static let capacity = 1_024

        /// What the table is keyed by: the target's type and, for a small enum, its value's bytes.
        private struct Key: Hashable {
            let type: ObjectIdentifier
            /// The value's bytes for a small enum; `nil` for the type's own entry.
            let bits: UInt32?
        }

        /// Labels found so far, behind one lock (an uncontended lock costs less than a reflection).
        private static let table = Locked<[Key: String]>([:])

        /// The label of `target` if the table knows it (no reflection).
        static func known(_ target: any TargetType) -> String? {
            // The table first: it never holds an `AnyTarget` or a `MetricsLabeledTarget` (see
            // `learn`), and a hit spares the two casts below (each searches the conformances).
            if let label = lookUp(target) { return label }
            if let erased = target as? AnyTarget { return known(erased.base) }
            if let labeled = target as? any MetricsLabeledTarget { return labeled.metricsLabel }
            return nil
        }

        /// Reflects the label of `target` and adds it to the table when its type allows (see
        /// above); the label, and whether it went into the table.
        static func learn(_ target: any TargetType) -> (label: String, stored: Bool) {
            if let erased = target as? AnyTarget { return learn(erased.base) }
            if let labeled = target as? any MetricsLabeledTarget { return (labeled.metricsLabel, true) }
            return add(target)
        }

        private static func keys<Target: TargetType>(_ target: Target) -> (type: Key, value: Key?) {
            let type = ObjectIdentifier(Target.self)
            let value = MemoryLayout<Target>.size <= 4 ? Key(type: type, bits: bits(of: target)) : nil
            return (Key(type: type, bits: nil), value)
        }

        private static func lookUp<Target: TargetType>(_ target: Target) -> String? {
            let (typeKey, valueKey) = keys(target)
            return table.withLock { table in
                if let label = table[typeKey] { return label }
                return valueKey.flatMap { table[$0] }
            }
        }

        private static func add<Target: TargetType>(_ target: Target) -> (label: String, stored: Bool) {
            let (typeKey, valueKey) = keys(target)
            let reflected = NetworkMetrics.targetLabel(target)
            let isEnum = Mirror(reflecting: target).displayStyle == .enum
            // A large enum's bytes are not a key (they may hold references or a string's storage).
            guard let key = isEnum ? valueKey : typeKey else { return (reflected, false) }
            let stored = table.withLock { table in
                guard table.count < capacity else { return false }
                table[key] = reflected
                return true
            }
            return (reflected, stored)
        }

        /// The bytes of a value of at most 4 bytes, as one number.
        private static func bits<Target>(of value: Target) -> UInt32 {
            withUnsafeBytes(of: value) { bytes in
                var bits: UInt32 = 0
                for (index, byte) in bytes.enumerated() { bits |= UInt32(byte) << (8 * UInt32(index)) }
                return bits
            }
        }
    }
#endif
