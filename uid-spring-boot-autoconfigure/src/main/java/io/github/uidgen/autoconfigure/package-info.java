/**
 * Auto-configuration of uid: the {@code uid.*} properties, handed to the core builders by
 * {@code UidPropertyMapper} so that a refused value is reported under its property; the generator, segment store
 * and worker-ID assigner beans; the {@code …UidGeneratorCustomizer} hooks; and the failure analyzers that explain
 * what only uid knows (worker IDs and their stores, the clock behind the mark, the state file) at start-up.
 */
package io.github.uidgen.autoconfigure;
