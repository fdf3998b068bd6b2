package io.github.uidgen.shardingsphere;

import io.github.uidgen.DecodedUid;
import io.github.uidgen.InvalidUidException;
import io.github.uidgen.UidLayout;
import io.github.uidgen.segment.NoLayoutException;
import org.apache.shardingsphere.infra.algorithm.core.ShardingSphereAlgorithm;
import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmExecuteException;

/**
 * Reads sharding values as IDs of the application's layout, through {@link UidLayout} only, for the sharding
 * algorithms.
 */
final class UidIds {

	private UidIds() {
	}

	/** The layout of the bound application's generator, refusing a generator without one (the segment generator). */
	static UidLayout layoutOf(UidSource source, String name, String type) {
		if (source.uidGenerator() == null) {
			throw new IllegalStateException("The ShardingSphere sharding algorithm '" + name + "' of type " + type
					+ " reads the layout of the application's UidGenerator, and " + source.name() + " has none. Add "
					+ "the uid starter (uid.enabled=true, a worker-ID assigner) or declare a UidGenerator bean.");
		}
		try {
			return source.uidGenerator().layout();
		}
		catch (NoLayoutException ex) {
			throw new IllegalStateException("The ShardingSphere sharding algorithm '" + name + "' of type " + type
					+ " reads the time, worker and sequence inside IDs, but the application's generator hands out "
					+ "segment numbers, which carry none. Shard segment numbers with ShardingSphere's MOD or an "
					+ "INLINE expression instead.", ex);
		}
	}

	/** The sharding value as a number, refusing what is not one. */
	static long toLong(ShardingSphereAlgorithm algorithm, Comparable<?> value) {
		if (value instanceof Number number) {
			return number.longValue();
		}
		try {
			return Long.parseLong(String.valueOf(value).trim());
		}
		catch (NumberFormatException ex) {
			throw new AlgorithmExecuteException(algorithm, "%s", "the sharding value '" + value + "' is not an ID; "
					+ "shard a BIGINT column that holds uid IDs");
		}
	}

	/** Decodes an ID, refusing one that does not fit the layout. */
	static DecodedUid decode(ShardingSphereAlgorithm algorithm, UidLayout layout, long id) {
		try {
			return layout.decode(id);
		}
		catch (InvalidUidException ex) {
			throw new AlgorithmExecuteException(algorithm, "%s", "ID " + id + " is not an ID of the application's "
					+ "layout (" + layout + "): " + ex.getMessage() + ". It was not issued by this application's "
					+ "UidGenerator; a row with it has no table to go to");
		}
	}

}
