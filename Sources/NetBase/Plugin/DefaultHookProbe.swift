import Foundation

/// How the provider learns which hooks a plugin leaves at their defaults, without the plugin
/// declaring anything: each default hook leaves a mark on its thread, naming its plugin type and
/// itself, just before it returns; the provider reads the mark right after calling a hook, and a
/// hook found at its default is never called again by that provider (defaults change nothing, so
/// skipping one is the same as calling it).
///
/// Why a mark can be trusted: a default hook does not suspend, so the provider reads the mark on
/// the thread that wrote it, before anything else runs there. A mark naming type `T` and hook `h`
/// can only come from `T`'s default `h`; if `T` implements `h` itself, its default never runs, so
/// no mark left on a thread by other code (another call, a plugin calling another plugin) can make
/// an implemented hook look like a default.
package enum DefaultHookProbe {
    /// The hooks, as bit positions in a plugin's set of defaults.
    package enum Hook: UInt8, Sendable {
        case prepare, willSend, succeed, failure, didReceive, process
    }

    /// The thread-local slot holding the last mark (a pthread key: created once, never deleted).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The mark of `hook` for plugin type `type`: its metadata address with the hook in the low
    /// bits (type metadata is at least 8-byte aligned, so they are free).
    @inline(__always)
    package static func mark(_ type: any Any.Type, _ hook: Hook) -> UInt {
        UInt(bitPattern: ObjectIdentifier(type)) | UInt(hook.rawValue)
    }

    /// Called by a default hook of `type` as it returns.
    package static func record(_ type: any Any.Type, _ hook: Hook) {
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: mark(type, hook)))
    }

    /// Whether the hook just called was the default of the plugin type whose mark is `mark`
    /// (and forgets the mark).
    package static func wasDefault(_ mark: UInt) -> Bool {
        guard let last = pthread_getspecific(key) else { return false }
        pthread_setspecific(key, nil)
        return UInt(bitPattern: last) == mark
    }
}
