/**
 * Internal support shared by uid's own worker-ID assigners (lease settings and tokens, the pause between claim
 * rounds, the host an instance runs on); not API: it may change in any release.
 */
package io.github.uidgen.worker.support;
