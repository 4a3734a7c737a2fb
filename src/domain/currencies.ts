/**
 * ISO 4217 alphabetic currency codes a person may give as a document's currency: the codes in
 * force (list one of the standard, funds and precious metals included, the testing and "no currency" codes not), and those withdrawn since
 * the euro's introduction that documents still kept in archives print (`DEM`, `HRK`, `LTL`, …).
 */
const ACTIVE =
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF XPT XSU XUA YER ZAR ZMW ZWG';
const WITHDRAWN =
  'ATS BEF BYR CUC CYP DEM EEK ESP FIM FRF GRD HRK IEP ITL LTL LUF LVL MRO MTL NLG PTE SIT SKK SLL STD VEF ZMK ZWL';

export const CURRENCY_CODES: ReadonlySet<string> = new Set(`${ACTIVE} ${WITHDRAWN}`.split(' '));

/** Whether `code` (upper case) is an ISO 4217 currency code. */
export const isCurrencyCode = (code: string): boolean => CURRENCY_CODES.has(code);
