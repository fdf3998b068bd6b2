package io.github.uidgen.autoconfigure;

import io.github.uidgen.buffer.RejectedPutHandler;
import io.github.uidgen.buffer.RingBuffer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The {@code log} put policy: the filler keeps the IDs that did not fit, as always, and each rejection is logged
 * at debug level. Rejections are routine (every fill ends on a full ring), hence not a warning.
 */
final class LoggingRejectedPutHandler implements RejectedPutHandler {

	private static final Log logger = LogFactory.getLog(LoggingRejectedPutHandler.class);

	@Override
	public void rejectPutBuffer(RingBuffer ring, long uid) {
		if (logger.isDebugEnabled()) {
			logger.debug("Ring buffer full; UID " + uid + " and the rest of its time unit are kept for the next fill ("
					+ ring + ")");
		}
	}

}
