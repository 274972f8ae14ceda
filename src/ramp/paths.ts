/**
 * The ramp's paths, one table per generation. Legacy paths carry a brand where the spec writes
 * `svc` (`RAMP_LEGACY_BRAND`). History exists only in the current generation; it is served on the
 * same base address, so a legacy client uses the current history paths.
 */

export type Generation = 'current' | 'legacy';

export interface RampPaths {
  quote: string;
  assets: string;
  onrampOrder: string;
  onrampStatus: (orderId: string) => string;
  deposit: string;
  offrampOrder: string;
  offrampStatus: (orderId: string) => string;
  offrampTicket: string;
  onrampTicket: string;
  onrampHistory: (userAddress: string) => string;
  offrampHistory: (userAddress: string) => string;
  checkoutSessions: string;
}

const seg = (s: string) => encodeURIComponent(s);

const history = {
  onrampHistory: (a: string) => `/api/deposit-transactions/${seg(a)}`,
  offrampHistory: (a: string) => `/api/withdrawal-transactions/${seg(a)}`,
  checkoutSessions: '/v1/checkout/sessions',
};

export function rampPaths(generation: Generation, legacyBrand = 'svc'): RampPaths {
  if (generation === 'current') {
    return {
      quote: '/api/fx-quotes',
      assets: '/api/listed-assets',
      onrampOrder: '/api/onramp-orders',
      onrampStatus: (id) => `/api/onramp-order-status/${seg(id)}`,
      deposit: '/api/deposit',
      offrampOrder: '/api/offramp-orders',
      offrampStatus: (id) => `/api/offramp-order-status/${seg(id)}`,
      offrampTicket: '/api/offramp-ticket',
      onrampTicket: '/api/onramp-ticket',
      ...history,
    };
  }
  const b = legacyBrand;
  return {
    quote: `/api/${b}-quotes`,
    assets: `/api/${b}-supported-assets`,
    onrampOrder: `/api/${b}-onramp`,
    onrampStatus: (id) => `/api/order-onramp-status/${seg(id)}`,
    deposit: `/api/${b}-deposit`,
    offrampOrder: `/api/${b}-order-offramp`,
    offrampStatus: (id) => `/api/order-offramp-status/${seg(id)}`,
    offrampTicket: '/api/create-offramp-ticket',
    onrampTicket: '/api/user-onramp-ticket',
    ...history,
  };
}
