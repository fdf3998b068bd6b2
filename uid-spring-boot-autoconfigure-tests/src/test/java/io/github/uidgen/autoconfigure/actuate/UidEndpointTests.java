package io.github.uidgen.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.autoconfigure.ManualClock;
import io.github.uidgen.autoconfigure.actuate.UidEndpoint.CapacityDescriptor;
import io.github.uidgen.autoconfigure.actuate.UidEndpoint.ErrorDescriptor;
import io.github.uidgen.autoconfigure.actuate.UidEndpoint.ParsedUid;
import io.github.uidgen.autoconfigure.actuate.UidEndpoint.UidDescriptor;
import io.github.uidgen.snowflake.CachedUidGenerator;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link UidEndpoint}, called directly.
 */
class UidEndpointTests {

	@Test
	void describesTheDefaultGenerator() {
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.workerIdAssigner(new FixedWorkerIdAssigner(21))
			.build()) {
			for (int i = 0; i < 5; i++) {
				generator.getUID();
			}
			UidDescriptor descriptor = new UidEndpoint(generator).describe();
			assertThat(descriptor.generator()).isEqualTo("default");
			assertThat(descriptor.layout().timeUnit()).isEqualTo("milliseconds");
			assertThat(descriptor.layout().epoch()).isEqualTo("2025-01-01");
			assertThat(descriptor.layout().timeBits()).isEqualTo(41);
			assertThat(descriptor.layout().workerBits()).isEqualTo(10);
			assertThat(descriptor.layout().seqBits()).isEqualTo(12);
			assertThat(descriptor.layout().maxWorkerId()).isEqualTo(1023);
			assertThat(descriptor.layout().datacenterBits()).isZero();
			assertThat(descriptor.datacenterId()).as("no data-center bits").isNull();
			assertThat(descriptor.layout().idsPerUnit()).isEqualTo(4096);
			assertThat(descriptor.layout().expiry()).isEqualTo(UidLayout.defaults().getExpiry().toString());
			assertThat(descriptor.workerId()).isEqualTo(21);
			assertThat(descriptor.assigner()).isEqualTo("fixed");
			assertThat(Instant.parse(descriptor.highWaterMark())).isAfter(Instant.now().minusSeconds(60));
			assertThat(descriptor.aheadOfClockMillis()).isNotNegative();
			assertThat(descriptor.issued()).isEqualTo(5);
			assertThat(descriptor.ring()).isNull();
			assertThat(descriptor.failure()).isNull();
			assertThat(descriptor.workerSwitches()).isZero();
			assertThat(descriptor.previousWorkerId()).isNull();
			assertThat(descriptor.capacity().workerIdSpace()).isEqualTo(1024);
			assertThat(descriptor.capacity().datacenterIdSpace()).isEqualTo(1);
			assertThat(descriptor.capacity().idsPerSecond()).isEqualTo(4096 * 1000);
			assertThat(descriptor.capacity().sequenceExhaustedUnits()).isZero();
		}
	}

	@Test
	void capacityShowsTheTimeLeftInTheLayoutByTheClock() {
		UidLayout layout = UidLayout.defaults();
		ManualClock clock = new ManualClock(layout.getExpiry().minus(Duration.ofDays(3 * 365 + 10)));
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.workerIdAssigner(new FixedWorkerIdAssigner(24))
			.build()) {
			UidEndpoint endpoint = new UidEndpoint(generator, null, null, false, clock);
			CapacityDescriptor capacity = endpoint.describe().capacity();
			assertThat(capacity.layoutRemainingSeconds()).isEqualTo(Duration.ofDays(3 * 365 + 10).toSeconds());
			assertThat(capacity.layoutRemainingYears()).isEqualTo(3);
			clock.set(layout.getExpiry().plusSeconds(5));
			assertThat(endpoint.describe().capacity().layoutRemainingSeconds()).isZero();
		}
	}

	@Test
	void describesAMoveToAnotherWorkerAsTheClockSteppedBack() {
		try (DefaultUidGenerator generator = SteppedBackGenerator.build()) {
			UidDescriptor descriptor = new UidEndpoint(generator).describe();
			assertThat(descriptor.workerId()).isEqualTo(2);
			assertThat(descriptor.workerSwitches()).isEqualTo(1);
			assertThat(descriptor.previousWorkerId()).isEqualTo(1);
			assertThat(descriptor.failure()).isNull();
		}
	}

	@Test
	void describesTheCachedGeneratorsRing() {
		try (CachedUidGenerator generator = CachedUidGenerator.builder()
			.workerIdAssigner(new FixedWorkerIdAssigner(22))
			.boostPower(1)
			.build()) {
			generator.getUID();
			UidDescriptor descriptor = new UidEndpoint(generator).describe();
			assertThat(descriptor.generator()).isEqualTo("cached");
			assertThat(descriptor.issued()).isEqualTo(1);
			assertThat(descriptor.ring().capacity()).isEqualTo(8192);
			assertThat(descriptor.ring().size()).isBetween(1, 8192);
			assertThat(descriptor.ring().fillPercent()).isEqualTo(100 * descriptor.ring().size() / 8192);
			assertThat(descriptor.ring().takeRejections()).isZero();
			assertThat(descriptor.capacity().sequenceExhaustedUnits()).as("the cached generator borrows instead")
				.isNull();
		}
	}

	@Test
	void describesAnApplicationsOwnGeneratorByItsLayout() {
		UidGenerator own = new UidGenerator() {

			@Override
			public long getUID() {
				return 1;
			}

			@Override
			public UidLayout layout() {
				return UidLayout.defaults();
			}

		};
		UidDescriptor descriptor = new UidEndpoint(own).describe();
		assertThat(descriptor.generator()).isEqualTo(own.getClass().getName());
		assertThat(descriptor.layout().timeBits()).isEqualTo(41);
		assertThat(descriptor.workerId()).isNull();
	}

	@Test
	void parsesAnIdItIssued() {
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.workerIdAssigner(new FixedWorkerIdAssigner(23))
			.build()) {
			long uid = generator.getUID();
			WebEndpointResponse<Object> response = new UidEndpoint(generator).parse("parse", " " + uid + " ", null);
			assertThat(response.getStatus()).isEqualTo(200);
			ParsedUid parsed = (ParsedUid) response.getBody();
			assertThat(parsed.uid()).isEqualTo(Long.toString(uid));
			assertThat(parsed.workerId()).isEqualTo(23);
			assertThat(parsed.datacenterId()).as("no data-center bits").isNull();
			assertThat(parsed.timestamp()).isEqualTo(generator.decode(uid).timestamp().toString());
			assertThat(parsed.sequence()).isEqualTo(generator.decode(uid).sequence());
		}
	}

	@Test
	void refusesBadInputWith400AndAMessage() {
		// 53 bits: 2^53 - 1 is the largest ID, so 2^53 is out of range though it fits a long.
		UidGenerator shortIds = shortLayoutGenerator();
		UidEndpoint endpoint = new UidEndpoint(shortIds);
		assertBadRequest(endpoint.parse("parse", null, null), "missing");
		assertBadRequest(endpoint.parse("parse", "", null), "empty");
		assertBadRequest(endpoint.parse("parse", "   ", null), "empty");
		assertBadRequest(endpoint.parse("parse", "12abc", null), "'12abc' is not a decimal number");
		assertBadRequest(endpoint.parse("parse", "-", null), "not a decimal number");
		assertBadRequest(endpoint.parse("parse", "-42", null), "negative");
		assertBadRequest(endpoint.parse("parse", Long.toString(1L << 53), null), "beyond this layout");
		assertBadRequest(endpoint.parse("parse", "99999999999999999999999", null), "out of range");
		assertBadRequest(endpoint.parse("parse", "x".repeat(10_000), null), "is not a decimal number");
		assertThat(((ErrorDescriptor) endpoint.parse("parse", "x".repeat(10_000), null).getBody()).message())
			.hasSizeLessThan(200);
	}

	@Test
	void answersAnUnknownOperationWith404() {
		WebEndpointResponse<Object> response = new UidEndpoint(shortLayoutGenerator()).parse("decode", "1", null);
		assertThat(response.getStatus()).isEqualTo(404);
		assertThat(((ErrorDescriptor) response.getBody()).message()).contains("/actuator/uid/parse?uid=");
	}

	private static UidGenerator shortLayoutGenerator() {
		UidLayout layout = new UidLayout(UidTimeUnit.SECONDS, LocalDate.of(2025, 1, 1), 31, 8, 14);
		assertThat(layout.totalBits()).isEqualTo(53);
		return new UidGenerator() {

			@Override
			public long getUID() {
				return 1;
			}

			@Override
			public UidLayout layout() {
				return layout;
			}

		};
	}

	private static void assertBadRequest(WebEndpointResponse<Object> response, String message) {
		assertThat(response.getStatus()).isEqualTo(400);
		ErrorDescriptor error = (ErrorDescriptor) response.getBody();
		assertThat(error.status()).isEqualTo(400);
		assertThat(error.error()).isEqualTo("Bad Request");
		assertThat(error.message()).contains(message);
	}

}
