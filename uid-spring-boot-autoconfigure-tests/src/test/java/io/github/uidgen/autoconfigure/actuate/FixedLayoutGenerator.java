package io.github.uidgen.autoconfigure.actuate;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidLayout;

/**
 * An application's own generator, standing in for any that is not one of uid's: always the same ID.
 */
final class FixedLayoutGenerator implements UidGenerator {

	@Override
	public long getUID() {
		return 1;
	}

	@Override
	public UidLayout layout() {
		return UidLayout.defaults();
	}

}
