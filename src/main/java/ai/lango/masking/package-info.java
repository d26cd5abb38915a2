/**
 * Secret values out of every text that leaves the server or is stored: {@link ai.lango.masking.SecretScanner}
 * finds them (longest first, the same way every time), {@link ai.lango.masking.StreamMasker} does it
 * across a stream's chunks, and {@link ai.lango.masking.SecretMask} holds the secrets known now (the
 * configured ones and the vault's) for every place that masks. Depends on nothing but the JDK, so
 * every layer may use it.
 */
package ai.lango.masking;
