package io.github.uidgen.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/**
 * Matches when the static assigner is chosen: {@code uid.worker.assigner=static}, or no assigner set but a
 * {@code uid.worker.id} or an ordinal source ({@code uid.worker.static.ordinal-from}) is. The only safe inference:
 * without a worker ID there is nothing to choose from.
 */
class OnStaticAssignerCondition extends SpringBootCondition {

	private static final String ASSIGNER = "uid.worker.assigner";

	private static final String WORKER_ID = "uid.worker.id";

	private static final String ORDINAL_FROM = "uid.worker.static.ordinal-from";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Environment environment = context.getEnvironment();
		ConditionMessage.Builder message = ConditionMessage.forCondition("static worker-ID assigner");
		String assigner = environment.getProperty(ASSIGNER);
		if (StringUtils.hasText(assigner)) {
			return "static".equalsIgnoreCase(assigner.strip())
					? ConditionOutcome.match(message.because(ASSIGNER + " is static"))
					: ConditionOutcome.noMatch(message.because(ASSIGNER + " is " + assigner));
		}
		if (StringUtils.hasText(environment.getProperty(WORKER_ID))) {
			return ConditionOutcome.match(message.because(ASSIGNER + " is not set and " + WORKER_ID + " is"));
		}
		if (StringUtils.hasText(environment.getProperty(ORDINAL_FROM))) {
			return ConditionOutcome.match(message.because(ASSIGNER + " is not set and " + ORDINAL_FROM + " is"));
		}
		return ConditionOutcome.noMatch(message.because("neither " + ASSIGNER + ", " + WORKER_ID + " nor "
				+ ORDINAL_FROM + " is set"));
	}

}
