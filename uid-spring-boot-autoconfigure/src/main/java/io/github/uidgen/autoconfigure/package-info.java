/**
 * Auto-configuration of uid: the {@code uid.*} properties, the generator and worker-ID assigner beans, and the
 * failure analyzers that explain an invalid configuration at start-up.
 */
package io.github.uidgen.autoconfigure;
