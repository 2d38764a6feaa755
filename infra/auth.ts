/**
 * Who may call the API. By default a Cognito user pool issues client-credential
 * tokens to one machine client; given an external OIDC issuer instead, the
 * stack only verifies that issuer's tokens and creates no Cognito resources.
 */
import { createHash } from 'node:crypto';
import { Duration, Names, Stack } from 'aws-cdk-lib';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { AccountRecovery, OAuthScope, ResourceServerScope, UserPool, type UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { RESOURCE_SERVER_ID, SCOPE_NAMES } from '../lib/routes';

export interface ExternalIssuer {
  /** The `iss` claim of accepted tokens, e.g. `https://login.example.com/`. */
  issuer: string;
  /** Accepted `aud` values (or `client_id` for tokens without `aud`). */
  audience: string[];
}

export interface ApiAuthProps {
  /** Verify tokens of this issuer instead of creating a Cognito user pool. */
  external?: ExternalIssuer;
}

/** The Cognito resources, present only when the stack issues its own tokens. */
export interface CognitoTokenIssuer {
  userPool: UserPool;
  machineClient: UserPoolClient;
  /** Where the machine client trades its id and secret for a token (client credentials grant). */
  tokenUrl: string;
}

export class ApiAuth extends Construct {
  readonly authorizer: HttpJwtAuthorizer;
  readonly issuer: string;
  readonly cognito?: CognitoTokenIssuer;

  constructor(scope: Construct, id: string, props: ApiAuthProps = {}) {
    super(scope, id);
    if (props.external) {
      this.issuer = props.external.issuer;
      this.authorizer = new HttpJwtAuthorizer('JwtAuthorizer', this.issuer, { jwtAudience: props.external.audience });
      return;
    }
    this.cognito = this.createCognitoIssuer();
    const { region, urlSuffix } = Stack.of(this);
    this.issuer = `https://cognito-idp.${region}.${urlSuffix}/${this.cognito.userPool.userPoolId}`;
    // Client-credential access tokens carry no `aud`; API Gateway then matches `client_id` against the audience.
    this.authorizer = new HttpJwtAuthorizer('CognitoAuthorizer', this.issuer, {
      jwtAudience: [this.cognito.machineClient.userPoolClientId],
    });
  }

  private createCognitoIssuer(): CognitoTokenIssuer {
    // Only machine clients use this pool: no person signs up, signs in or recovers an account.
    const userPool = new UserPool(this, 'UserPool', {
      selfSignUpEnabled: false,
      accountRecovery: AccountRecovery.NONE,
      // No one has a password here; should an administrator ever add a user, it gets a strong one.
      passwordPolicy: {
        minLength: 14,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(1),
      },
    });

    const readScope = new ResourceServerScope({ scopeName: SCOPE_NAMES.read, scopeDescription: 'Read everything' });
    const writeScope = new ResourceServerScope({ scopeName: SCOPE_NAMES.write, scopeDescription: 'Change data' });
    const resourceServer = userPool.addResourceServer('AdminResourceServer', {
      identifier: RESOURCE_SERVER_ID,
      scopes: [readScope, writeScope],
    });

    const machineClient = userPool.addClient('MachineClient', {
      generateSecret: true,
      oAuth: {
        flows: { clientCredentials: true },
        scopes: [OAuthScope.resourceServer(resourceServer, readScope), OAuthScope.resourceServer(resourceServer, writeScope)],
      },
      accessTokenValidity: Duration.hours(1),
    });

    const domain = userPool.addDomain('TokenDomain', { cognitoDomain: { domainPrefix: this.domainPrefix() } });
    return { userPool, machineClient, tokenUrl: `${domain.baseUrl()}/oauth2/token` };
  }

  /**
   * Cognito domain prefixes are unique per region across all accounts. The
   * account id keeps accounts apart and a hash of this construct's path keeps
   * stacks of one account apart. Hex digits, not the readable path, because a
   * prefix may hold only [a-z0-9-] and must not contain "aws" or "cognito".
   * The account may be a token at synth time; CloudFormation resolves it.
   */
  private domainPrefix(): string {
    const pathHash = createHash('sha256').update(Names.uniqueId(this)).digest('hex').slice(0, 8);
    return `dept-admin-${pathHash}-${Stack.of(this).account}`;
  }
}
