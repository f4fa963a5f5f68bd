/** `expireAfter` / `consolidateAfter`: a Go duration in s/m/h, or `Never`. */
export const NillableDurationPattern = '^(([0-9]+(s|m|h))+|Never)$';
/** `terminationGracePeriod`: a Go duration in s/m/h. */
export const DurationPattern = '^([0-9]+(s|m|h))+$';
